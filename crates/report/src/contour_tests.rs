//! The contour geometry against a Gaussian's closed forms: the density level of its region of
//! mass m is exp(-chi2/2) / (2 pi sqrt|S|) with chi2 = -2 ln(1 - m), the ellipse at m encloses
//! mass m, and the marching-squares line of that level lies on the ellipse.

use super::*;
use crate::fixture;
use bayeslab_core::record::ExactSource;

const MU: [f64; 2] = [0.5, -1.0];
const S: [[f64; 2]; 2] = [[1.0, 0.6], [0.6, 0.5]];

fn det() -> f64 {
    S[0][0] * S[1][1] - S[0][1] * S[1][0]
}

/// The Gaussian N(MU, S)'s density at (x, y), in closed form.
fn gauss(x: f64, y: f64) -> f64 {
    let (u, v) = (x - MU[0], y - MU[1]);
    let q = (S[1][1] * u * u - 2.0 * S[0][1] * u * v + S[0][0] * v * v) / det();
    (-0.5 * q).exp() / (std::f64::consts::TAU * det().sqrt())
}

/// N(MU, S) on an n x n grid over ±`half` sd of each weight.
fn grid(n: usize, half: f64) -> PairDensity {
    let (sx, sy) = (S[0][0].sqrt(), S[1][1].sqrt());
    let (x, y) = (
        [MU[0] - half * sx, MU[0] + half * sx],
        [MU[1] - half * sy, MU[1] + half * sy],
    );
    let mut p = PairDensity::new([0, 1], (x, y), n, Vec::new(), ExactSource::Quadrature);
    p.density = (0..n * n)
        .map(|c| {
            let (u, v) = p.at(c % n, c / n);
            gauss(u, v)
        })
        .collect();
    p
}

/// Whether (x, y) is inside the closed polygon `poly` (ray casting).
fn inside(poly: &[(f64, f64)], (x, y): (f64, f64)) -> bool {
    let mut odd = false;
    for w in poly.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if (y0 > y) != (y1 > y) && x < x0 + (y - y0) / (y1 - y0) * (x1 - x0) {
            odd = !odd;
        }
    }
    odd
}

#[test]
fn the_mass_level_of_a_gaussian_grid_is_its_closed_form() {
    // a fine grid, and the pictures' own resolution (model/quadrature/pairs.rs: 49 points
    // over about ±4.2 sd), where the bilinear interpolant's flattened peak costs about 1 %
    for (n, half, tol) in [(241, 6.0, 2e-3), (49, 4.2, 1.5e-2)] {
        let p = grid(n, half);
        for m in LEVELS {
            // a Gaussian's region of density above l holds 1 - 2 pi sqrt|S| l in closed form
            let got = mass_level(&p, m).unwrap();
            let true_mass = 1.0 - std::f64::consts::TAU * det().sqrt() * got;
            assert!(
                (true_mass - m).abs() < tol,
                "n = {n}, m = {m}: level {got} holds {true_mass}"
            );
            let held = superlevel_mass(&p, got);
            assert!(
                (held - m).abs() < 1e-3,
                "n = {n}, m = {m}: superlevel mass {held}"
            );
        }
    }
}

#[test]
fn the_ellipse_at_m_encloses_mass_m_of_the_gaussian_grid() {
    let p = grid(241, 6.0);
    let (dx, dy) = p.spacing();
    for m in LEVELS {
        let ring = ellipse(MU, S, m, 720);
        let held: f64 = (0..p.density.len())
            .filter(|c| inside(&ring, p.at(c % p.points, c / p.points)))
            .map(|c| p.density[c] * dx * dy)
            .sum();
        assert!((held - m).abs() < 4e-3, "m = {m}: the ellipse holds {held}");
    }
}

#[test]
fn the_contour_of_the_mass_level_lies_on_the_ellipse() {
    let p = grid(121, 6.0);
    let m = 0.9;
    let level = mass_level(&p, m).unwrap();
    let lines = contours(&p, level);
    assert_eq!(lines.len(), 1, "one closed line around a Gaussian's mode");
    let line = &lines[0];
    let (first, last) = (line[0], line[line.len() - 1]);
    assert!((first.0 - last.0).abs() < 1e-12 && (first.1 - last.1).abs() < 1e-12);
    for &(x, y) in line {
        let (u, v) = (x - MU[0], y - MU[1]);
        let q = (S[1][1] * u * u - 2.0 * S[0][1] * u * v + S[0][0] * v * v) / det();
        assert!(
            (q / chi2_2(m) - 1.0).abs() < 0.03,
            "({x}, {y}) at radius² {q}"
        );
    }
}

#[test]
fn two_separate_bumps_give_two_lines_and_a_flat_grid_none() {
    let mut p = grid(81, 6.0);
    let n = p.points;
    p.density = (0..n * n)
        .map(|c| {
            let (u, v) = p.at(c % n, c / n);
            gauss(u, v) + gauss(u - 4.0, v - 3.0)
        })
        .collect();
    assert_eq!(contours(&p, 0.1).len(), 2);
    p.density = vec![0.0; n * n];
    assert!(contours(&p, 0.1).is_empty());
}

#[test]
fn the_default_pair_is_the_most_correlated() {
    let mut run = fixture::run("laplace", &[0.0, 1.0, 2.0], Some(1.0), None);
    let post = run.posterior.as_mut().unwrap();
    let cov = post.cov.as_mut().unwrap();
    cov[0][2] = -0.8;
    cov[2][0] = -0.8;
    cov[0][1] = 0.3;
    cov[1][0] = 0.3;
    let r = fixture::record(&["(intercept)", "a", "b"], &["0", "1"], vec![run]);
    assert_eq!(default_pair(&r), Some([0, 2]));
    assert_eq!(pairs(3), vec![[0, 1], [0, 2], [1, 2]]);
}
