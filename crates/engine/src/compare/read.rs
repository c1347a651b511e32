//! Reading a run directory for `compare`: the binning from results.json and every prediction
//! from predictions.csv, each checked (a probability in [0, 1], class rows summing to 1, labels
//! that are classes of the columns) so that a damaged or foreign file is refused with its line
//! and column instead of being scored.

use std::path::Path;

use super::{Predictions, Scores, MAX_BINS};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::metrics::Binning;

/// How far the class probabilities of a row may sum from 1 (bayeslab writes them to rounding).
const SUM_TOLERANCE: f64 = 1e-6;

const REWRITE: &str = "is it the file bayeslab wrote? Run the experiment again to rewrite it";

/// Read `results.json` (for the binning) and `predictions.csv` of a run directory.
pub fn from_dir(dir: &Path) -> Result<Predictions> {
    let (bins, binning) = read_binning(&dir.join("results.json"))?;
    let path = dir.join("predictions.csv");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::data(&path, format!("cannot read: {e}")))?;
    let (y, columns) = parse(&path, &text)?;
    Ok(Predictions {
        y,
        columns,
        bins,
        binning,
    })
}

/// The labels and the prediction columns of a predictions.csv.
type Parsed = (Vec<f64>, Vec<(String, Scores)>);

fn read_binning(results: &Path) -> Result<(usize, Binning)> {
    let text = std::fs::read_to_string(results).map_err(|e| {
        Error::data(
            results,
            format!("cannot read ({e}); is this a bayeslab run directory?"),
        )
    })?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Error::data(results, format!("not valid JSON: {e}")))?;
    let bins = &json["experiment"]["calibration_bins"];
    let bins = bins
        .as_u64()
        .filter(|b| (1..=MAX_BINS as u64).contains(b))
        .ok_or_else(|| {
            Error::data(
                results,
                format!(
                    "experiment.calibration_bins = {bins}: expected a whole number from 1 to {MAX_BINS}; {REWRITE}"
                ),
            )
        })?;
    let binning = &json["experiment"]["calibration_binning"];
    let binning = binning.as_str().and_then(Binning::parse).ok_or_else(|| {
        Error::data(
            results,
            format!(
                "experiment.calibration_binning = {binning}: expected \"equal-width\" or \"equal-mass\"; {REWRITE}"
            ),
        )
    })?;
    Ok((bins as usize, binning))
}

/// A prediction column of predictions.csv: one field (p(y = 1)) or K fields (`<name>/p<k>`).
struct Group {
    name: String,
    fields: Vec<usize>,
    classes: bool,
}

/// The class columns `<run>/<predictive>/p<k>`: (`<run>/<predictive>`, k).
fn class_column(h: &str) -> Option<(&str, usize)> {
    let (prefix, last) = h.rsplit_once('/')?;
    let k = last.strip_prefix('p')?;
    (prefix.contains('/') && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
        .then(|| k.parse().ok().map(|k| (prefix, k)))
        .flatten()
}

fn groups(path: &Path, header: &[&str]) -> Result<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::new();
    for (f, h) in header.iter().enumerate().skip(2) {
        // Monte-Carlo standard errors are not predictions: they are not compared. Nor are the
        // row's place in its data file (`data_row`) and its `[data] id` key: every prediction
        // column's name is `<run>/<predictive>`.
        if h.ends_with("_mcse") || !h.contains('/') {
            continue;
        }
        let (name, classes, k) = match class_column(h) {
            Some((prefix, k)) => (prefix, true, k),
            None => (*h, false, 0),
        };
        match groups.iter_mut().find(|g| g.name == name) {
            Some(g) if g.classes && classes && g.fields.len() == k && g.fields.last() == Some(&(f - 1)) => {
                g.fields.push(f)
            }
            Some(g) if g.classes && classes => {
                return Err(Error::data(
                    path,
                    format!(
                        "column \"{h}\" (column {}) does not follow \"{name}/p{}\": the class columns of a predictive are \
                         p0, p1, ... side by side; {REWRITE}",
                        f + 1,
                        g.fields.len()
                    ),
                ))
            }
            Some(_) => {
                return Err(Error::data(
                    path,
                    format!(
                        "the header names the predictions \"{name}\" twice (column {}); {REWRITE}",
                        f + 1
                    ),
                ))
            }
            None if classes && k != 0 => {
                return Err(Error::data(
                    path,
                    format!(
                        "column \"{h}\" (column {}) comes without \"{name}/p0\": the class columns of a predictive are \
                         p0, p1, ... side by side; {REWRITE}",
                        f + 1
                    ),
                ))
            }
            None => groups.push(Group {
                name: name.to_string(),
                fields: vec![f],
                classes,
            }),
        }
    }
    if let Some(g) = groups.iter().find(|g| g.classes && g.fields.len() < 2) {
        return Err(Error::data(
            path,
            format!(
                "\"{}\" has a single class column \"{}/p0\": the class probabilities need one column per class (p0, p1, ...); {REWRITE}",
                g.name, g.name
            ),
        ));
    }
    if groups.is_empty() {
        return Err(Error::data(
            path,
            format!(
                "the header `{}` names no predictions (columns after `row,y`); {REWRITE}",
                header.join(",")
            ),
        ));
    }
    Ok(groups)
}

/// A value printed with at most 9 decimals and no trailing zeros (1.2000000000000002 -> 1.2).
fn short(v: f64) -> String {
    let s = format!("{v:.9}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The fields of one line, a quoted field (a `[data] id` key with a comma) taken whole.
fn fields(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, b) in line.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&line[start..]);
    out
}

/// Read the labels and the prediction columns of a predictions.csv.
fn parse(path: &Path, text: &str) -> Result<Parsed> {
    let mut lines = text.lines();
    let header: Vec<&str> = match lines.next() {
        Some(h) if !h.trim().is_empty() => fields(h),
        _ => {
            return Err(Error::data(
                path,
                format!(
                    "the file is empty: a predictions.csv has the header `row,y,<run>/<predictive>,...` and one line per test row; {REWRITE}"
                ),
            ))
        }
    };
    if header.len() < 2 || header[0] != "row" || header[1] != "y" {
        return Err(Error::data(
            path,
            "the header must start with `row,y`; is this a bayeslab predictions.csv?",
        ));
    }
    let groups = groups(path, &header)?;
    let mut y = Vec::new();
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); groups.len()];
    for (i, line) in lines.enumerate() {
        let at = |column: &str| format!("line {}, column \"{column}\"", i + 2);
        let fields = fields(line);
        if fields.len() != header.len() {
            return Err(Error::data(
                path,
                format!(
                    "line {} has {} fields but the header has {}: the file is cut short or was edited; {REWRITE}",
                    i + 2,
                    fields.len(),
                    header.len()
                ),
            ));
        }
        if fields[0].parse::<usize>().ok() != Some(i) {
            return Err(Error::data(
                path,
                format!(
                    "{}: \"{}\" where row {i} was expected: the rows must be the test rows in order; {REWRITE}",
                    at("row"),
                    fields[0]
                ),
            ));
        }
        let label = fields[1]
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                Error::data(
                    path,
                    format!("{}: \"{}\" is not a number", at("y"), fields[1]),
                )
            })?;
        for (g, column) in groups.iter().zip(values.iter_mut()) {
            let k = g.fields.len();
            let ok = if g.classes {
                label.fract() == 0.0 && label >= 0.0 && label < k as f64
            } else {
                label == 0.0 || label == 1.0
            };
            if !ok {
                let want = if g.classes {
                    format!(
                        "a class index of the {k} class columns \"{}/p0\" to \"p{}\" (0 to {})",
                        g.name,
                        k - 1,
                        k - 1
                    )
                } else {
                    format!("a label of the two-class column \"{}\" (0 or 1)", g.name)
                };
                return Err(Error::data(
                    path,
                    format!("{}: {} is not {want}; {REWRITE}", at("y"), fields[1]),
                ));
            }
            let mut sum = 0.0;
            for &f in &g.fields {
                let v: f64 = fields[f].parse().map_err(|_| {
                    Error::data(
                        path,
                        format!("{}: \"{}\" is not a number", at(header[f]), fields[f]),
                    )
                })?;
                if !(0.0..=1.0).contains(&v) {
                    return Err(Error::data(
                        path,
                        format!(
                            "{}: {} is not a probability: every prediction must lie in [0, 1]; {REWRITE}",
                            at(header[f]),
                            fields[f]
                        ),
                    ));
                }
                sum += v;
                column.push(v);
            }
            if g.classes && (sum - 1.0).abs() > SUM_TOLERANCE {
                return Err(Error::data(
                    path,
                    format!(
                        "line {}: the class probabilities \"{}/p0\" to \"p{}\" sum to {}, not 1 (within {SUM_TOLERANCE:e}); {REWRITE}",
                        i + 2,
                        g.name,
                        k - 1,
                        short(sum)
                    ),
                ));
            }
        }
        y.push(label);
    }
    if y.is_empty() {
        return Err(Error::data(
            path,
            format!("the file has a header but no rows: a comparison needs the predictions of the test rows; {REWRITE}"),
        ));
    }
    let columns = groups
        .into_iter()
        .zip(values)
        .map(|(g, v)| {
            let scores = if g.classes {
                Scores::Classes(v.chunks(g.fields.len()).map(<[f64]>::to_vec).collect())
            } else {
                Scores::Binary(v)
            };
            (g.name, scores)
        })
        .collect();
    Ok((y, columns))
}
