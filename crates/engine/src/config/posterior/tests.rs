//! `[[posterior]]` tables: defaults, the resolved form and the messages.

use std::path::Path;

use super::*;
use bayeslab_core::error::Result;
use bayeslab_core::record::ApproxKind;

fn parse(text: &str) -> Result<crate::config::Plan> {
    crate::config::parse(text, Path::new("lab.toml"))
}

#[test]
fn defaults_fill_in_and_data_becomes_optional() {
    let plan = parse("[[posterior]]\nkind = \"gamma-poisson\"\ncounts = [3, 0, 2]\n").unwrap();
    assert!(plan.data.is_none() && plan.methods.is_empty());
    let p = &plan.posteriors[0];
    assert_eq!(p.id, "gamma-poisson");
    assert_eq!(
        p.kind,
        PosteriorKind::GammaPoisson {
            shape: DEFAULT_SHAPE,
            rate: DEFAULT_RATE,
            t_df: DEFAULT_T_DF
        }
    );
    assert_eq!(
        p.approximations,
        [ApproxKind::Normal, ApproxKind::LogNormal, ApproxKind::T]
    );
    assert_eq!(p.subsets, [Subset::All]);
    assert_eq!(p.source, PosteriorSource::Values(vec![3.0, 0.0, 2.0]));
}

#[test]
fn a_sweep_list_mixes_sizes_and_all() {
    let plan = parse(
        "[[posterior]]\nkind = \"mixture-laplace\"\nvalues = [1.0, 2.0, 9.0]\nsubset = [2, \"all\"]\nstarts = 5\n",
    )
    .unwrap();
    let p = &plan.posteriors[0];
    assert_eq!(p.subsets, [Subset::First(2), Subset::All]);
    assert!(matches!(
        p.kind,
        PosteriorKind::MixtureLaplace { starts: 5, .. }
    ));
    let e = parse("[[posterior]]\nkind = \"mixture-laplace\"\nvalues = [1.0]\nsubset = [2]\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("subset entry 2: only 1 inline values"), "{e}");
}
