//! Streaming against the in-memory run on designs other than Pima's: categorical columns with
//! filled gaps (issue 17: levels and fill values from the statistics passes) and a design wide
//! enough for chord Newton's gradient-only passes (issue 19).

use std::path::{Path, PathBuf};

use bayeslab_core::record::PassPurpose;

use crate::util::streaming::{assert_equal, root, run, write_parquet};

/// Penguins (text columns, a coded year, gaps) as an experiment with every issue-17 encoding.
fn penguins_experiment(dir: &Path, data: &Path, chunk_rows: Option<usize>, extra: &str) -> PathBuf {
    let stream = chunk_rows.map_or(String::new(), |n| {
        format!("streaming = true\nchunk_rows = {n}\n")
    });
    let text = format!(
        "name = \"penguins\"\n[data]\npath = {:?}\ntarget = \"sex\"\npositive = \"male\"\n\
         features = [\"species\", \"island\", \"bill_length_mm\", \"bill_depth_mm\", \"flipper_length_mm\", \
         \"body_mass_g\", \"clutch_completion\", \"delta_15n\", \"year\"]\n\
         categorical = [\"year\"]\nreference = {{ species = \"Gentoo\" }}\nmissing = \"mean\"\n\
         missing_indicator = true\n{extra}\nsplit = {{ test_fraction = 0.25, seed = 3, draw = \"hash\" }}\n{stream}\
         [[method]]\nkind = \"logistic-laplace\"\npredictive = [\"plugin\", \"probit\"]\n\
         [[method]]\nkind = \"logistic-map\"\n",
        data.display().to_string()
    );
    let name = match chunk_rows {
        Some(n) => format!("streamed-penguins-{n}.toml"),
        None => "memory-penguins.toml".to_string(),
    };
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn streaming_equals_in_memory_with_categorical_columns_and_mean_imputation() {
    // Levels, fill values and the design columns' statistics come from the statistics passes
    // (one more for the encoded columns' moments), so every number is the in-memory one.
    let dir = tempfile::tempdir().unwrap();
    let csv = root().join("datasets/penguins.csv");
    let parquet = dir.path().join("penguins.parquet");
    write_parquet(&csv, &parquet);
    for (data, extra) in [(&csv, "standardise_indicators = true"), (&parquet, "")] {
        let sub = tempfile::tempdir().unwrap();
        let memory = run(&penguins_experiment(sub.path(), data, None, extra));
        let streamed = run(&penguins_experiment(sub.path(), data, Some(37), extra));
        assert_eq!(streamed.dataset.encoding, memory.dataset.encoding);
        assert_eq!(streamed.dataset.summaries, memory.dataset.summaries);
        assert_eq!(streamed.dataset.notes, memory.dataset.notes);
        assert!(memory
            .dataset
            .columns
            .contains(&"species=Adelie".to_string()));
        assert!(memory
            .dataset
            .columns
            .contains(&"delta_15n=missing".to_string()));
        assert!(memory.dataset.columns.contains(&"year=2009".to_string()));
        let info = streamed.streaming.as_ref().unwrap();
        assert!(info
            .passes
            .iter()
            .any(|p| p.purpose == bayeslab_core::record::PassPurpose::EncodedStatistics));
        assert_equal(&streamed, &memory);
    }
}

/// 2,000 rows of 260 seeded features x ~ U(-2, 2) and y = [u < sigma(x^T w)] (a 64-bit LCG,
/// Knuth's MMIX constants), w_j = (-1)^j 0.05: 261 design columns with the intercept, above
/// CHORD_MIN_COLUMNS.
fn write_wide_csv(to: &Path) {
    let mut state: u64 = 19;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut text = (1..=260).map(|j| format!("x{j},")).collect::<String>() + "y\n";
    for _ in 0..2000 {
        let mut a = 0.0;
        for j in 1..=260 {
            let v = 4.0 * next() - 2.0;
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            a += v * sign * 0.05;
            text.push_str(&format!("{v},"));
        }
        let y = u8::from(next() < 1.0 / (1.0 + (-a).exp()));
        text.push_str(&format!("{y}\n"));
    }
    std::fs::write(to, text).unwrap();
}

/// With 261 design columns the GLM fits use chord Newton (issue 19): the streamed fit reads the
/// file for E and g alone on most passes (`fit-grad`), fewer with the Hessian (`fit`), and still
/// equals the in-memory run to 1e-10.
#[test]
fn chord_newton_streams_its_gradient_passes_and_equals_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("wide.csv");
    write_wide_csv(&csv);
    // MAP and MLE only: a posterior would add k-hat's 20,000 draws x 261 columns, minutes in a
    // debug build.
    let toml = |streamed: bool| {
        let name = if streamed {
            "streamed-wide.toml"
        } else {
            "wide.toml"
        };
        let stream = if streamed {
            "streaming = true\nchunk_rows = 37\n"
        } else {
            ""
        };
        let text = format!(
            "name = \"wide\"\nseed = 3\n[data]\npath = {:?}\ntarget = \"y\"\n\
             split = {{ every = 5, offset = 4 }}\n{stream}[prior]\nprecision = 1.0\n\
             [[method]]\nkind = \"logistic-mle\"\n[[method]]\nkind = \"logistic-map\"\n",
            csv.display().to_string()
        );
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        file
    };
    let memory = run(&toml(false));
    let streamed = run(&toml(true));
    let info = streamed.streaming.as_ref().unwrap();
    assert_eq!(info.runs.len(), 2);
    for r in &info.runs {
        let of_run = |purpose: PassPurpose| {
            info.passes
                .iter()
                .filter(|p| p.purpose == purpose && p.run.as_deref() == Some(r.run.as_str()))
                .count()
        };
        assert_eq!(r.gradient_passes, of_run(PassPurpose::FitGrad), "{r:?}");
        assert_eq!(
            r.passes,
            of_run(PassPurpose::Fit) + of_run(PassPurpose::FitGrad),
            "{r:?}"
        );
        let hessian = r.passes - r.gradient_passes;
        assert!(r.gradient_passes > hessian && hessian >= 2, "{r:?}");
    }
    assert_equal(&streamed, &memory);
}
