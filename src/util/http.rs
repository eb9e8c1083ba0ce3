//! The one way mf builds an HTTP client: [`client_builder`] installs rustls's crypto provider
//! (ring, the only one compiled in) as the process default first, so every `reqwest` client —
//! the providers', the live MCP fetch's, a library caller's or a test's — finds one. reqwest is
//! built without a provider of its own (`rustls-no-provider`) and panics on a client built
//! before one is installed (the GitHub comment client is a reqwest client too).

use std::sync::Once;

/// Make ring the process-wide rustls provider (once; a provider someone installed first stays).
pub fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Err means another provider is already the default: keep it.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A `reqwest` client builder with the crypto provider in place.
pub fn client_builder() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
}

/// A default `reqwest` client (for tests and simple callers).
///
/// # Panics
/// When the TLS backend cannot be initialized (as `reqwest::Client::new`).
pub fn client() -> reqwest::Client {
    install_crypto_provider();
    reqwest::Client::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_builds_with_the_installed_provider() {
        assert!(client_builder().build().is_ok());
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
