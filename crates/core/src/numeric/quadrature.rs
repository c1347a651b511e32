//! Gauss-Hermite quadrature, computed rather than tabulated.
//!
//! Nodes are the roots of the n-th Hermite polynomial, found by Newton's method on the
//! orthonormal recurrence  p_{j+1}(x) = x sqrt(2/(j+1)) p_j(x) - sqrt(j/(j+1)) p_{j-1}(x),
//! p_0 = pi^{-1/4}, which stays in floating-point range for hundreds of nodes. The weight of
//! node x_i for the weight function e^{-x^2} is 2 / p_n'(x_i)^2 with p_n' = sqrt(2n) p_{n-1}.

/// A Gauss-Hermite rule for the weight function e^{-x^2}.
#[derive(Debug, Clone)]
pub struct GaussHermite {
    nodes: Vec<f64>,
    weights: Vec<f64>,
}

impl GaussHermite {
    /// The n-point rule (exact for polynomials of degree 2n - 1 times e^{-x^2}). n >= 1.
    pub fn new(n: usize) -> Self {
        assert!(n >= 1, "Gauss-Hermite needs at least one node");
        let mut nodes = vec![0.0; n];
        let mut weights = vec![0.0; n];
        let nf = n as f64;
        let p0 = std::f64::consts::PI.powf(-0.25);
        let half = n.div_ceil(2);
        let mut z = 0.0_f64;
        for i in 0..half {
            // Initial guesses for the largest roots first (Szego's asymptotics, as tuned
            // in Stroud & Secrest), then extrapolation from the two previous roots.
            z = match i {
                0 => (2.0 * nf + 1.0).sqrt() - 1.855_75 * (2.0 * nf + 1.0).powf(-1.0 / 6.0),
                1 => z - 1.14 * nf.powf(0.426) / z,
                2 => 1.86 * z - 0.86 * nodes[0],
                3 => 1.91 * z - 0.91 * nodes[1],
                _ => 2.0 * z - nodes[i - 2],
            };
            let mut derivative = 0.0;
            for _ in 0..100 {
                let (p_n, p_n1) = orthonormal_hermite(n, z, p0);
                derivative = (2.0 * nf).sqrt() * p_n1;
                let dz = p_n / derivative;
                z -= dz;
                if dz.abs() <= 1e-15 * z.abs().max(1.0) {
                    break;
                }
            }
            let (_, p_n1) = orthonormal_hermite(n, z, p0);
            derivative = if p_n1 != 0.0 {
                (2.0 * nf).sqrt() * p_n1
            } else {
                derivative
            };
            nodes[i] = z;
            nodes[n - 1 - i] = -z;
            let w = 2.0 / (derivative * derivative);
            weights[i] = w;
            weights[n - 1 - i] = w;
        }
        if n % 2 == 1 {
            nodes[n / 2] = 0.0;
        }
        GaussHermite { nodes, weights }
    }

    pub fn nodes(&self) -> &[f64] {
        &self.nodes
    }

    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// E[f(a)] for a ~ N(mean, var): (1/sqrt(pi)) sum_i w_i f(mean + sqrt(2 var) x_i).
    pub fn expect_normal(&self, mean: f64, var: f64, f: impl Fn(f64) -> f64) -> f64 {
        let scale = (2.0 * var.max(0.0)).sqrt();
        let sum: f64 = self
            .nodes
            .iter()
            .zip(&self.weights)
            .map(|(x, w)| w * f(mean + scale * x))
            .sum();
        sum / std::f64::consts::PI.sqrt()
    }
}

/// (p_n(x), p_{n-1}(x)) of the orthonormal Hermite recurrence.
fn orthonormal_hermite(n: usize, x: f64, p0: f64) -> (f64, f64) {
    let mut p1 = p0;
    let mut p2 = 0.0;
    for j in 0..n {
        let p3 = p2;
        p2 = p1;
        let jf = j as f64;
        p1 = x * (2.0 / (jf + 1.0)).sqrt() * p2 - (jf / (jf + 1.0)).sqrt() * p3;
    }
    (p1, p2)
}

#[cfg(test)]
mod tests;

pub mod grid;
