//! The convergence table and the samplers' diagnostics against the evidence fixture of
//! tests.rs, whose runs' numbers are known.

use super::log_evidence::tests::evidence_record;
use super::tests::column;
use super::*;

#[test]
fn the_convergence_table_names_a_bound_as_a_bound() {
    let r = evidence_record();
    let t = convergence(&r);
    let ids = column(&t, "run");
    let own = column(&t, "log evidence");
    let cell = |id: &str| {
        let i = ids.iter().position(|c| c.text == id).unwrap();
        own[i].text.clone()
    };
    // Approximations of ln p(y | X) read as numbers; bounds say which bound they are.
    assert_eq!(cell("laplace"), "-100.0500");
    assert_eq!(cell("ep"), "-100.0150");
    assert_eq!(cell("jj"), "-101.5000 (JJ bound)");
    assert_eq!(cell("kl"), "-99.9000 (ELBO)");
    assert_eq!(cell("kl-mf"), "-100.7000 (ELBO mean-field)");
}

#[test]
fn an_hmc_runs_moves_are_said_and_its_divergences_flagged() {
    use bayeslab_core::record::{Diagnostics, HmcDiagnostics};
    let mut r = evidence_record();
    let hmc = HmcDiagnostics {
        acceptance: 0.8125,
        step_size: 0.5,
        leapfrog_steps: 4.25,
        divergent: 0,
    };
    let sampler = r.runs.iter_mut().find(|x| x.id == "gibbs").unwrap();
    sampler.diagnostics = Some(Diagnostics {
        rhat_max: 1.002,
        ess_min: 5000.0,
        hmc: Some(hmc),
    });
    let (text, bad) = super::sampler_diagnostics(&r).remove(0);
    assert!(text.ends_with("(chains mixed); HMC acceptance 0.81, step 0.500, 4.2 leapfrog steps per draw, 0 divergent"), "{text}");
    assert!(!bad);
    let d = r.runs.iter_mut().find(|x| x.id == "gibbs").unwrap();
    d.diagnostics.as_mut().unwrap().hmc = Some(HmcDiagnostics {
        divergent: 3,
        ..hmc
    });
    let (text, bad) = super::sampler_diagnostics(&r).remove(0);
    assert!(
        bad && text.contains("3 divergent — DIVERGENT trajectories"),
        "{text}"
    );
}
