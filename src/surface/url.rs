//! URL facts both ends of a live target need: the origin credentials are bound to, whether a
//! host is the local machine, and a URL made safe to print. Target resolution (`target.rs`)
//! and the MCP client (`live.rs`) both read them here, so neither imports the other for them.

/// `scheme://host:port` of a URL (port always written), for binding credentials.
pub fn origin_of(url: &reqwest::Url) -> String {
    let host = url.host_str().unwrap_or_default();
    let port = url
        .port_or_known_default()
        .map(|p| p.to_string())
        .unwrap_or_default();
    format!("{}://{}:{}", url.scheme(), host.to_ascii_lowercase(), port)
}

/// Whether a host is the local machine (`localhost`, 127.0.0.0/8, `::1`).
pub fn is_loopback_host(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A URL with user info and query values removed, for messages and names.
pub fn redact_url_for_display(url: &str) -> String {
    super::scan::mcp_config::redact_url(url)
}
