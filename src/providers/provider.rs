//! One model endpoint as eval calls it: an [`HttpProvider`] is a wire format chosen for the
//! model's provider ([`wire_format`]) sent through the shared [`Transport`]. This is the only
//! place that names the formats; the formats know only the trait and the report types, and the
//! transport knows only the trait.

use std::fmt;

use sha2::{Digest, Sha256};

use super::anthropic::Anthropic;
use super::config::{ConfigError, ModelSpec, ProviderKind, Wire};
use super::http::{Attempt, HttpOptions, Transport};
use super::openai_chat::OpenaiChat;
use super::openai_responses::OpenaiResponses;
use super::redact::REDACTED;
use super::{TrialRequest, WireFormat};

/// One HTTP model endpoint speaking one wire format.
pub struct HttpProvider {
    format: Box<dyn WireFormat>,
    transport: Transport,
    tool_choice_auto: bool,
}

impl fmt::Debug for HttpProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpProvider")
            .field("wire", &self.format.id())
            .field("endpoint", &self.endpoint_display())
            .field(
                "key",
                &if self.transport.key.is_some() {
                    REDACTED
                } else {
                    "none"
                },
            )
            .field("headers", &self.transport.header_names())
            .field("options", &self.transport.options)
            .finish_non_exhaustive()
    }
}

/// The wire format for `wire` as provider `kind` speaks it.
pub fn wire_format(wire: Wire, kind: ProviderKind) -> Box<dyn WireFormat> {
    match wire {
        Wire::OpenaiResponses => Box::new(OpenaiResponses),
        Wire::OpenaiChat => Box::new(OpenaiChat::for_provider(kind)),
        Wire::Anthropic => Box::new(Anthropic),
    }
}

impl HttpProvider {
    /// Reads the key from the spec's key variable ([`ModelSpec::key_env`]). A missing key on a
    /// provider with [`ProviderKind::key_required`] is an error naming the variable (never a
    /// value). The base URL comes from [`ModelSpec::endpoint`]; without one the error tells the
    /// user to pass `--base-url` or set `base_url`.
    pub fn new(
        spec: &ModelSpec,
        options: HttpOptions,
        client: reqwest::Client,
    ) -> Result<HttpProvider, ConfigError> {
        let var = spec.key_env();
        let key = var
            .as_deref()
            .and_then(|v| std::env::var(v).ok())
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty());
        if key.is_none() && spec.provider.key_required() {
            return Err(ConfigError(match var {
                Some(v) => format!(
                    "model {}: the API key variable {v} is not set; export {v} (or name \
                     another variable with api_key_env)",
                    spec.label
                ),
                None => format!(
                    "model {}: no API key variable; set api_key_env for this model",
                    spec.label
                ),
            }));
        }
        HttpProvider::with_key(spec, key, options, client)
    }

    /// Like [`HttpProvider::new`] with the key given instead of read from the environment (tests,
    /// embedding). `None` sends no key.
    pub fn with_key(
        spec: &ModelSpec,
        key: Option<String>,
        options: HttpOptions,
        client: reqwest::Client,
    ) -> Result<HttpProvider, ConfigError> {
        let Some(wire) = spec.provider.wire() else {
            return Err(ConfigError(format!(
                "model {}: provider {} is offline and has no HTTP endpoint",
                spec.label,
                spec.provider.id()
            )));
        };
        let Some(endpoint) = spec.endpoint() else {
            return Err(ConfigError(format!(
                "model {}: provider {} has no default URL; pass --base-url or set base_url for \
                 this model in mf.toml",
                spec.label,
                spec.provider.id()
            )));
        };
        let format = wire_format(wire, spec.provider);
        let transport = Transport::new(spec, &endpoint, format.as_ref(), key, options, client)?;
        Ok(HttpProvider {
            format,
            transport,
            tool_choice_auto: spec.tool_choice_auto,
        })
    }

    /// The wire format id (`openai`, `openai-chat`, `anthropic`).
    pub fn wire_id(&self) -> &'static str {
        self.format.id()
    }

    /// The base URL for reports with userinfo and query removed.
    pub fn endpoint_display(&self) -> String {
        self.transport.endpoint_display()
    }

    /// sha256 hex over what shapes requests besides the trial itself: wire id, redacted
    /// endpoint, header names (sorted), max output tokens, temperature. No secrets.
    pub fn request_fingerprint(&self, temperature: Option<f64>, max_output_tokens: u32) -> String {
        let mut text = format!(
            "wire={}\nendpoint={}\nheaders={}\nmax_output_tokens={max_output_tokens}\ntemperature={}\n",
            self.wire_id(),
            self.endpoint_display(),
            self.transport.header_names().join(","),
            temperature.map_or_else(|| "default".to_owned(), |t| t.to_string()),
        );
        if self.tool_choice_auto {
            text.push_str("tool_choice=auto\n");
        }
        let digest = Sha256::digest(text.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        format!("sha256:{hex}")
    }

    /// Send one trial, retrying 429/5xx/timeouts as configured. Never panics; every failure is
    /// an `Err` outcome with a redacted message.
    pub async fn call(&self, req: &TrialRequest<'_>) -> Attempt {
        let mut wire = self.format.request(req);
        if self.tool_choice_auto
            && !req.tools.is_empty()
            && let Some(body) = wire.body.as_object_mut()
        {
            // "auto" lets the model choose (call or not); it forces nothing. Some servers
            // (llama-cpp-python's chatml-function-calling) drop the tools without it.
            let auto = match self.format.id() {
                "anthropic" => serde_json::json!({"type": "auto"}),
                _ => serde_json::json!("auto"),
            };
            body.insert("tool_choice".into(), auto);
        }
        self.transport.send(self.format.as_ref(), &wire).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(entry: &str, key: Option<&str>) -> HttpProvider {
        let spec = super::super::config::resolve_model(entry, &Default::default()).expect("entry");
        HttpProvider::with_key(
            &spec,
            key.map(str::to_owned),
            HttpOptions::default(),
            crate::util::http::client(),
        )
        .expect("provider")
    }

    #[test]
    fn key_headers_are_sensitive_and_fixed_ones_are_not() {
        let p = provider("anthropic:claude-x", Some("k-123"));
        let key = p.transport.headers.get("x-api-key").expect("key header");
        assert!(key.is_sensitive());
        assert!(!p.transport.headers["anthropic-version"].is_sensitive());
        let p = provider("openai:gpt-x", Some("k-123"));
        assert!(p.transport.headers["authorization"].is_sensitive());
        assert!(!format!("{:?}", p.transport.headers).contains("k-123"));
        let empty = provider("openai:gpt-x", Some(""));
        assert!(empty.transport.headers.get("authorization").is_none());
    }

    #[test]
    fn request_urls_append_the_format_path_and_keep_the_query() {
        let mut spec =
            super::super::config::resolve_model("openai-chat:m", &Default::default()).expect("m");
        spec.base_url = Some("https://h.example/openai/v1/?api-version=2024".into());
        let p = HttpProvider::with_key(
            &spec,
            None,
            HttpOptions::default(),
            crate::util::http::client(),
        )
        .expect("provider");
        assert_eq!(
            p.transport.url_for("/chat/completions").as_str(),
            "https://h.example/openai/v1/chat/completions?api-version=2024"
        );
    }
}
