//! The polynomial map's columns: every monomial of total degree 1..=d, and its name.

/// Monomials of total degree 1..=degree over `d` variables, each as its exponent list.
pub(super) fn monomials(d: usize, degree: usize, limit: usize) -> Option<Vec<Vec<usize>>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    // Each monomial is a non-decreasing list of variable indices.
    let mut frontier: Vec<Vec<usize>> = (0..d).map(|j| vec![j]).collect();
    for _ in 0..degree {
        out.extend(frontier.iter().cloned());
        if out.len() > limit {
            return None;
        }
        let mut next = Vec::new();
        for m in &frontier {
            let last = *m.last().unwrap_or(&0);
            for j in last..d {
                let mut n = m.clone();
                n.push(j);
                next.push(n);
                if out.len() + next.len() > limit {
                    return None;
                }
            }
        }
        frontier = next;
    }
    Some(out)
}

/// `x1*x2`, `x1^2*x3`, ...
pub(super) fn monomial_name(m: &[usize], names: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < m.len() {
        let j = m[i];
        let power = m[i..].iter().take_while(|&&v| v == j).count();
        parts.push(if power == 1 {
            names[j].clone()
        } else {
            format!("{}^{power}", names[j])
        });
        i += power;
    }
    parts.join("*")
}
