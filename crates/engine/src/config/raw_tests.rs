//! Every `[[method]]` field of the serde mirror is a key the catalogue knows.

use super::RawMethod;
use bayeslab_core::catalog::{COMMON_KEYS, OPTION_KEYS};

#[test]
fn every_method_field_is_a_common_or_an_option_key_of_the_catalogue() {
    let all = r#"
        kind = "lda"
        id = "x"
        predictive = ["plugin"]
        optimizer = "newton"
        learning_rate = 1.0
        max_iter = 1
        tolerance = 1.0
        mc_samples = 1
        quadrature_nodes = 1
        noise = 1.0
        damping = 1.0
        mean_field = true
        reference_class = true
        shared_covariance = true
        class_prior = 1.0
        mu0 = 0.0
        kappa0 = 1.0
        alpha0 = 1.0
        beta0 = 1.0
        nu0 = 1.0
        psi0 = 1.0
        a = 1.0
        b = 1.0
        binarize = 0.0
        chains = 2
        draws = 4
        burn_in = 0
        thin = 1
    "#;
    let raw: RawMethod = toml::from_str(all).expect("every field");
    let written = toml::Table::try_from(&raw).expect("serialises");
    assert_eq!(written.len(), COMMON_KEYS.len() + OPTION_KEYS.len());
    for key in written.keys() {
        assert!(
            COMMON_KEYS.contains(&key.as_str()) || OPTION_KEYS.contains(&key.as_str()),
            "{key}"
        );
    }
    assert_eq!(raw.option_keys(), OPTION_KEYS.to_vec());
    let bare: RawMethod = toml::from_str("kind = \"lda\"").expect("kind alone");
    assert!(bare.option_keys().is_empty());
}
