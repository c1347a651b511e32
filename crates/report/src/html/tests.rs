//! Tests of the HTML building blocks: prose with code spans, table cells that wrap, the styles.

use super::*;
use crate::tables::{Mark, Table};

#[test]
fn prose_keeps_its_code_spans_and_escapes_the_rest() {
    assert_eq!(
        prose("run longer chains (`draws`, `burn_in`) if R-hat > 1.01 & <x>"),
        "run longer chains (<code>draws</code>, <code>burn_in</code>) if R-hat &gt; 1.01 &amp; &lt;x&gt;"
    );
    assert_eq!(prose("an odd ` backtick"), "an odd  backtick");
}

#[test]
fn short_cells_stay_on_one_line_and_long_ones_wrap() {
    let message =
        "not positive definite: the Hessian of E at w has pivot 3 <= 0; raise the prior precision";
    let t = Table {
        headers: vec!["run".into(), "termination".into(), "k-hat".into()],
        numeric: vec![false, false, true],
        rows: vec![vec![
            "probit-laplace".into(),
            message.into(),
            "0.26 good".into(),
        ]],
    };
    let mut s = String::new();
    table(&mut s, &t);
    assert!(s.starts_with("<div class=\"table\"><table>") && s.ends_with("</table></div>\n"));
    assert!(s.contains("<td>probit-laplace</td>"));
    assert!(s.contains(&format!("<td class=\"wrap\">{}</td>", escape(message))));
    assert!(s.contains("<td class=\"num\">0.26 good</td>"));
    // the rule the classes rely on
    assert!(STYLE.contains("td{white-space:nowrap}td.wrap{white-space:normal"));
    // the best value green, a warning red
    let marked = |mark| Table {
        headers: vec!["k-hat".into()],
        numeric: vec![true],
        rows: vec![vec![tables::Cell {
            text: "0.82 bad".into(),
            mark,
        }]],
    };
    for (mark, class) in [(Mark::Best, "num best"), (Mark::Warn, "num warn")] {
        let mut s = String::new();
        table(&mut s, &marked(mark));
        assert!(
            s.contains(&format!("<td class=\"{class}\">0.82 bad</td>")),
            "{s}"
        );
    }
    assert!(STYLE.contains("td.best{font-weight:bold;background:#e8f4e8}"));
    assert!(STYLE.contains("td.warn{font-weight:bold;background:#fbe9e9;color:#a00}"));
}

#[test]
fn a_figure_caption_says_how_to_read_it_rather_than_repeat_its_title() {
    let f = crate::plots::Figure {
        stem: "weights".into(),
        caption: "Weights (posterior mean ± 2 sd)".into(),
        guide: "Runs side by side; `softmax` per class.".into(),
        svg: "<svg width=\"420\" height=\"400\"></svg>".into(),
    };
    let mut s = String::new();
    figure(&mut s, &f);
    assert_eq!(
        s,
        "<figure class=\"fig\" id=\"weights\" style=\"max-width:min(420px,100%)\"><svg width=\"420\" height=\"400\"></svg><figcaption>Runs side by side; <code>softmax</code> per class.</figcaption></figure>\n"
    );
    // a figure wider than the page scales down rather than overflow it
    assert!(STYLE.contains(".fig svg{max-width:100%;height:auto}"));
}
