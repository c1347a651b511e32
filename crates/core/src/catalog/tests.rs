//! The catalogue agrees with itself: names, key lists and the facts that follow from others.

use super::*;

#[test]
fn rows_are_in_kind_order_and_every_kind_parses_from_its_name() {
    for (i, k) in MethodKind::ALL.into_iter().enumerate() {
        assert_eq!(ROWS[i].kind, k, "row {i}");
        assert_eq!(k.row().kind, k);
        assert_eq!(MethodKind::parse(k.name()), Some(k));
        assert!(!k.predictives().is_empty(), "{}", k.name());
        assert!(!k.row().summary.is_empty());
    }
    let mut names: Vec<_> = ROWS.iter().map(|r| r.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ROWS.len(), "names are distinct");
    assert_eq!(MethodKind::parse("logistic"), None);
}

#[test]
fn every_listed_key_is_an_option_key_in_checking_order() {
    for r in &ROWS {
        let positions: Vec<usize> = r
            .keys
            .iter()
            .map(|k| {
                OPTION_KEYS
                    .iter()
                    .position(|o| o == k)
                    .unwrap_or_else(|| panic!("{}: {k} is not an option key", r.name))
            })
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{}", r.name);
    }
    for key in OPTION_KEYS {
        assert!(!COMMON_KEYS.contains(&key));
        assert!(
            ROWS.iter().any(|r| r.keys.contains(&key)),
            "{key} is used by no kind"
        );
    }
    for key in COMMON_KEYS {
        assert!(MethodKind::ALL.iter().all(|k| k.accepts(key)));
    }
}

#[test]
fn keys_follow_from_the_other_facts() {
    for k in MethodKind::ALL {
        let name = k.name();
        assert_eq!(k.accepts("optimizer"), k.optimised(), "{name}");
        assert_eq!(k.accepts("learning_rate"), k.optimised(), "{name}");
        let iterates = k.optimised()
            || matches!(k, MethodKind::EpProbit | MethodKind::EpLogistic)
            || k.family() == Family::Variational;
        assert_eq!(
            k.accepts("mean_field"),
            k.family() == Family::Variational && k != MethodKind::VbLogistic,
            "{name}"
        );
        assert_eq!(k.accepts("max_iter"), iterates, "{name}");
        assert_eq!(
            k.accepts("mc_samples"),
            k.supports(PredictiveKind::Mc),
            "{name}"
        );
        let samples = k.family().samples();
        assert_eq!(k.accepts("chains"), samples, "{name}");
        // a noise key exactly where the likelihood is a probit with a free beta
        let free_probit = k.accepts("noise");
        assert!(
            !free_probit
                || matches!(k.likelihood(2.0), Some(Likelihood::Probit { noise }) if noise == 2.0)
        );
        assert_eq!(
            k.uses_prior(),
            k != MethodKind::LogisticMle && !k.generative(),
            "{name}"
        );
        if k.generative() {
            assert_eq!(k.likelihood(1.0), None, "{name}");
            assert!(!k.has_posterior() && !k.binary_only(), "{name}");
        }
        if k.laplace_evidence() {
            assert!(
                k.optimised(),
                "{name}: the evidence search refits by optimisation"
            );
        }
        if k.is_gold() {
            assert!(k.has_posterior() && k.likelihood(1.0).is_some(), "{name}");
        }
    }
    assert_eq!(
        MethodKind::ProbitLaplace.likelihood(3.0),
        Some(Likelihood::Probit { noise: 1.0 })
    );
    assert!(!MethodKind::ProbitLaplace.supports(PredictiveKind::Mackay));
    assert!(!MethodKind::EpProbit.supports(PredictiveKind::Probit));
}

#[test]
fn every_family_has_a_kind() {
    for f in Family::ALL {
        assert!(MethodKind::ALL.iter().any(|k| k.family() == f), "{f:?}");
    }
}

#[test]
fn how_a_kind_fits_follows_from_its_family_and_keys() {
    for k in MethodKind::ALL {
        let name = k.name();
        let expected = match k.family() {
            Family::Gaussian | Family::Bernoulli => Fitting::ClosedForm,
            Family::Gibbs | Family::Hmc => Fitting::Sampled,
            Family::Quadrature => Fitting::Quadrature,
            // EP iterates under max_iter; its one-pass form ADF has no iteration budget
            _ if !k.accepts("max_iter") => Fitting::OnePass,
            _ => Fitting::Iterative,
        };
        assert_eq!(k.fitting(), expected, "{name}");
        // a class posterior exactly where a generative kind has conjugate prior keys
        let conjugate = k.accepts("kappa0") || k.accepts("a");
        assert_eq!(k.has_class_posterior(), conjugate, "{name}");
        assert!(!(k.has_class_posterior() && k.has_posterior()), "{name}");
    }
    assert_eq!(MethodKind::AdfProbit.fitting(), Fitting::OnePass);
    assert!(MethodKind::GaussianGenerative.has_class_posterior());
    assert!(!MethodKind::Lda.has_class_posterior());
}

#[test]
fn every_gaussian_posterior_has_its_own_evidence_and_the_samplers_none() {
    for k in MethodKind::ALL {
        // the samplers have none; the grid's evidence is the exact one
        let sampled = k.fitting() == Fitting::Sampled;
        assert_eq!(
            k.log_evidence().is_some(),
            k.has_posterior() && !sampled,
            "{}",
            k.name()
        );
        assert_eq!(
            k.log_evidence() == Some(LogEvidence::Exact),
            k.family() == Family::Quadrature,
            "{}",
            k.name()
        );
        // the kinds whose lambda the Laplace evidence can choose report that evidence
        if k.laplace_evidence() && k.has_posterior() {
            assert_eq!(k.log_evidence(), Some(LogEvidence::Laplace), "{}", k.name());
        }
    }
    assert!(MethodKind::VbLogistic.log_evidence().unwrap().lower_bound());
    assert!(!MethodKind::EpLogistic.log_evidence().unwrap().lower_bound());
    assert_eq!(LogEvidence::Elbo.label(true), "ELBO mean-field");
}

#[test]
fn kinds_and_predictives_serialise_as_their_names() {
    for k in MethodKind::ALL {
        let json = serde_json::to_value(k).unwrap();
        assert_eq!(json, serde_json::Value::from(k.name()));
        assert_eq!(serde_json::from_value::<MethodKind>(json).unwrap(), k);
    }
    for p in PredictiveKind::ALL {
        let json = serde_json::to_value(p).unwrap();
        assert_eq!(json, serde_json::Value::from(p.name()));
        assert_eq!(serde_json::from_value::<PredictiveKind>(json).unwrap(), p);
    }
    assert!(serde_json::from_str::<MethodKind>("\"logistic\"").is_err());
}
