//! The MCP client (BEHAVIOR §1.1 "Live servers"): start a server over stdio or reach it over
//! streamable HTTP, negotiate the protocol, page through `tools/list`, and shut it down on every
//! path. The only file that imports `rmcp`; the child process, the HTTP client (no redirects,
//! origin-bound credentials), per-phase timeouts and size caps are managed here around it.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{ClientConfig, ErrorCode, PaginatedRequestParams, ProtocolVersion};
use rmcp::service::{ClientInitializeError, RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::Value;

use super::url::{is_loopback_host, origin_of, redact_url_for_display};

/// Limits and timeouts of one live listing.
#[derive(Debug, Clone)]
pub struct LiveOptions {
    /// Spawning the process (stdio) or connecting (HTTP).
    pub timeout_start: Duration,
    /// The `initialize` handshake.
    pub timeout_init: Duration,
    /// The whole `tools/list` listing, every page.
    pub timeout_list: Duration,
    /// Environment variable names passed through to a stdio child (`--env`).
    pub pass_env: Vec<String>,
    /// Write the raw listing here (`--save-snapshot`).
    pub save_snapshot: Option<std::path::PathBuf>,
    /// Most pages followed.
    pub max_pages: usize,
    /// Most bytes read from a server (stdio) or tools JSON accepted (HTTP).
    pub max_listing_bytes: usize,
    /// How much of the server's stderr is kept (its tail).
    pub stderr_tail_bytes: usize,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions {
            timeout_start: Duration::from_secs(30),
            timeout_init: Duration::from_secs(30),
            timeout_list: Duration::from_secs(30),
            pass_env: vec![],
            save_snapshot: None,
            max_pages: 100,
            max_listing_bytes: 32 * 1024 * 1024,
            stderr_tail_bytes: 64 * 1024,
        }
    }
}

/// How to reach a server.
#[derive(Clone)]
pub enum Endpoint {
    /// A child process: program, arguments (no shell) and its complete environment.
    Stdio {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// The whole environment it gets (nothing else is inherited).
        env: Vec<(String, OsString)>,
        /// The folder it starts in (`None`: mf's own).
        cwd: Option<std::path::PathBuf>,
    },
    /// A streamable HTTP endpoint.
    Http {
        /// The URL.
        url: String,
        /// An `Authorization` header value and the origin it is bound to.
        authorization: Option<(String, String)>,
    },
}

impl std::fmt::Debug for Endpoint {
    // Environment values and credentials are never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Stdio {
                program,
                args,
                env,
                cwd,
            } => f
                .debug_struct("Stdio")
                .field("program", program)
                .field("args", args)
                .field("cwd", cwd)
                .field("env", &env.iter().map(|(k, _)| k).collect::<Vec<_>>())
                .finish(),
            Endpoint::Http { url, authorization } => f
                .debug_struct("Http")
                .field("url", url)
                .field(
                    "authorization_origin",
                    &authorization.as_ref().map(|(_, o)| o),
                )
                .finish(),
        }
    }
}

/// Which step of a live listing an error or timeout happened in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Starting the process or connecting.
    Start,
    /// The `initialize` handshake.
    Init,
    /// `tools/list`.
    List,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Start => "start (--timeout-start)",
            Phase::Init => "initialize (--timeout-init)",
            Phase::List => "tools/list (--timeout-list)",
        })
    }
}

/// Why a live listing failed. Each message says what happened and what to try.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The user pressed Ctrl-C while the server was being listed (exit 130).
    #[error("interrupted")]
    Interrupted,
    /// The program does not exist on PATH.
    #[error(
        "server {server}: command `{program}` not found on PATH; install it or pass its full path"
    )]
    CommandNotFound {
        /// Server display name.
        server: String,
        /// The program.
        program: String,
    },
    /// The process could not be started for another reason.
    #[error("server {server}: cannot start `{program}`: {reason}")]
    Spawn {
        /// Server display name.
        server: String,
        /// The program.
        program: String,
        /// What the OS said.
        reason: String,
    },
    /// The process exited before the listing was complete.
    #[error("server {server}: exited during {phase} ({status}); its stderr ends with:\n{stderr}")]
    Exited {
        /// Server display name.
        server: String,
        /// The phase.
        phase: Phase,
        /// Exit status.
        status: String,
        /// Tail of stderr.
        stderr: String,
    },
    /// A phase did not finish in time.
    #[error(
        "server {server}: timed out after {secs}s in {phase}; raise the timeout or check the server{stderr}"
    )]
    Timeout {
        /// Server display name.
        server: String,
        /// The phase.
        phase: Phase,
        /// The limit.
        secs: u64,
        /// Stderr tail, prefixed, or empty.
        stderr: String,
    },
    /// The server refused or answered with a protocol version mf does not speak.
    #[error("server {server}: protocol version refused: {detail}")]
    ProtocolRefused {
        /// Server display name.
        server: String,
        /// What each side offered.
        detail: String,
    },
    /// The server does not implement `tools/list`.
    #[error(
        "server {server}: does not implement tools/list (method not found); it may offer no tools"
    )]
    MethodNotFound {
        /// Server display name.
        server: String,
    },
    /// The server sent something that is not a valid listing or not JSON-RPC.
    #[error("server {server}: malformed response during {phase}: {detail}")]
    Malformed {
        /// Server display name.
        server: String,
        /// The phase.
        phase: Phase,
        /// What was wrong.
        detail: String,
    },
    /// The server sent more than the size cap.
    #[error("server {server}: listing larger than {limit} bytes; refusing to read more")]
    TooLarge {
        /// Server display name.
        server: String,
        /// The cap.
        limit: usize,
    },
    /// Pagination did not end.
    #[error("server {server}: tools/list {detail}")]
    Pagination {
        /// Server display name.
        server: String,
        /// Repeated cursor or page cap.
        detail: String,
    },
    /// The server answered a request with a JSON-RPC error.
    #[error("server {server}: {phase} failed: {message}")]
    Rpc {
        /// Server display name.
        server: String,
        /// The phase.
        phase: Phase,
        /// The error.
        message: String,
    },
    /// An HTTP redirect was refused.
    #[error("server {server}: redirected to {location}; redirects are refused, use the final URL")]
    Redirect {
        /// Server display name.
        server: String,
        /// Where it pointed (query values redacted).
        location: String,
    },
    /// Credentials would go over plain HTTP to a remote host.
    #[error(
        "refusing to send MF_HTTP_AUTHORIZATION to {origin} over plain HTTP; use https:// (only loopback hosts may use http)"
    )]
    InsecureAuth {
        /// The origin.
        origin: String,
    },
    /// Talking to the server failed (transport level).
    #[error("server {server}: {phase} failed: {detail}")]
    Transport {
        /// Server display name.
        server: String,
        /// The phase.
        phase: Phase,
        /// What happened.
        detail: String,
    },
    /// A target or option that cannot work (bad URL, empty command, unknown server).
    #[error("{0}")]
    Invalid(String),
}

/// Who answered `initialize`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerIdentity {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
    /// The negotiated protocol version.
    pub protocol_version: String,
}

/// A complete listing: the tools exactly as served (pages merged), and who served them.
#[derive(Debug, Clone)]
pub struct Listing {
    /// The server's identity.
    pub server: ServerIdentity,
    /// Each tool object as received.
    pub tools: Vec<Value>,
    /// Pages read.
    pub pages: usize,
}

/// Fetch a listing from blocking code: builds a current-thread runtime, and on Ctrl-C kills the
/// server (and its process group) and returns [`LiveError::Interrupted`] (exit 130).
pub fn fetch_blocking(
    server: &str,
    endpoint: &Endpoint,
    opts: &LiveOptions,
) -> Result<Listing, LiveError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| LiveError::Invalid(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async {
        tokio::select! {
            r = fetch(server, endpoint, opts) => r,
            _ = tokio::signal::ctrl_c() => Err(LiveError::Interrupted),
        }
    })
}

/// Fetch a listing. Dropping the future kills a stdio server's process group.
pub async fn fetch(
    server: &str,
    endpoint: &Endpoint,
    opts: &LiveOptions,
) -> Result<Listing, LiveError> {
    match endpoint {
        Endpoint::Stdio {
            program,
            args,
            env,
            cwd,
        } => fetch_stdio(server, program, args, env, cwd.as_deref(), opts).await,
        Endpoint::Http { url, authorization } => {
            fetch_http(server, url, authorization.as_ref(), opts).await
        }
    }
}

fn client_info() -> ClientConfig {
    let mut info = ClientConfig::default();
    info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
    info.client_info.name = "mf".into();
    info.client_info.version = env!("CARGO_PKG_VERSION").into();
    info.client_info.title = None;
    info.client_info.description = None;
    info.client_info.website_url = None;
    info.client_info.icons = None;
    info
}

/// Where raw pages come from when the transport lets mf see the bytes (stdio).
pub(crate) type RawPages = Option<Arc<Mutex<TapState>>>;

/// Initialize, list every page, close. Errors come back unrefined (the caller knows whether
/// the process died).
pub(crate) async fn session<T, E, A>(
    server: &str,
    transport: T,
    raw: RawPages,
    opts: &LiveOptions,
) -> Result<Listing, LiveError>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let client = match tokio::time::timeout(opts.timeout_init, client_info().serve(transport)).await
    {
        Err(_) => return Err(timeout(server, Phase::Init, opts.timeout_init)),
        Ok(Err(e)) => return Err(init_error(server, e)),
        Ok(Ok(c)) => c,
    };
    let identity = identity(&client);
    let known = ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .any(|v| v.as_str() == identity.protocol_version);
    if !known || identity.protocol_version.as_str() >= ProtocolVersion::NO_INITIALIZE.as_str() {
        let _ = tokio::time::timeout(Duration::from_secs(2), client.cancel()).await;
        return Err(LiveError::ProtocolRefused {
            server: server.into(),
            detail: format!(
                "server answered {:?}; mf speaks {}",
                identity.protocol_version,
                known_versions()
            ),
        });
    }
    let listed =
        tokio::time::timeout(opts.timeout_list, list_all(server, &client, raw, opts)).await;
    let _ = tokio::time::timeout(Duration::from_secs(2), client.cancel()).await;
    match listed {
        Err(_) => Err(timeout(server, Phase::List, opts.timeout_list)),
        Ok(Err(e)) => Err(e),
        Ok(Ok((tools, pages))) => Ok(Listing {
            server: identity,
            tools,
            pages,
        }),
    }
}

fn known_versions() -> String {
    ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .filter(|v| v.has_initialize())
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn identity(client: &RunningService<RoleClient, ClientConfig>) -> ServerIdentity {
    match client.peer_info() {
        Some(info) => ServerIdentity {
            name: info
                .server_info
                .as_ref()
                .map(|i| i.name.clone())
                .unwrap_or_default(),
            version: info
                .server_info
                .as_ref()
                .map(|i| i.version.clone())
                .unwrap_or_default(),
            protocol_version: info.protocol_version.as_str().to_owned(),
        },
        None => ServerIdentity {
            name: String::new(),
            version: String::new(),
            protocol_version: String::new(),
        },
    }
}

async fn list_all(
    server: &str,
    client: &RunningService<RoleClient, ClientConfig>,
    raw: RawPages,
    opts: &LiveOptions,
) -> Result<(Vec<Value>, usize), LiveError> {
    let mut tools = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0usize;
    let mut bytes = 0usize;
    loop {
        if pages >= opts.max_pages {
            return Err(LiveError::Pagination {
                server: server.into(),
                detail: format!("returned more than {} pages; stopping", opts.max_pages),
            });
        }
        let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
        let reply = client.peer().list_tools(Some(params)).await;
        let captured = raw
            .as_ref()
            .and_then(|r| r.lock().ok().and_then(|mut s| s.pages.pop_front()));
        let (page_tools, next) = match (reply, captured) {
            // The bytes as served win over rmcp's re-serialization.
            (Ok(_), Some(page)) | (Err(ServiceError::UnexpectedResponse), Some(page)) => {
                raw_page(server, &page)?
            }
            (Ok(result), None) => {
                let mut v = Vec::with_capacity(result.tools.len());
                for t in &result.tools {
                    v.push(
                        serde_json::to_value(t)
                            .map_err(|e| malformed(server, Phase::List, e.to_string()))?,
                    );
                }
                (v, result.next_cursor)
            }
            (Err(e), _) => return Err(service_error(server, Phase::List, e)),
        };
        pages += 1;
        bytes += page_tools
            .iter()
            .map(|t| t.to_string().len())
            .sum::<usize>();
        if bytes > opts.max_listing_bytes {
            return Err(LiveError::TooLarge {
                server: server.into(),
                limit: opts.max_listing_bytes,
            });
        }
        tools.extend(page_tools);
        match next {
            None => return Ok((tools, pages)),
            Some(c) if c.is_empty() => return Ok((tools, pages)),
            Some(c) => {
                if !seen.insert(c.clone()) {
                    let shown: String = c.chars().take(60).collect();
                    return Err(LiveError::Pagination {
                        server: server.into(),
                        detail: format!(
                            "repeated cursor {shown:?} after {pages} pages; the server's pagination loops"
                        ),
                    });
                }
                cursor = Some(c);
            }
        }
    }
}

fn raw_page(server: &str, page: &Value) -> Result<(Vec<Value>, Option<String>), LiveError> {
    let tools = page
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| malformed(server, Phase::List, "result has no `tools` array".into()))?;
    let next = match page.get("nextCursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            return Err(malformed(
                server,
                Phase::List,
                format!(
                    "`nextCursor` is {}, expected a string",
                    crate::surface::formats::describe(other)
                ),
            ));
        }
    };
    Ok((tools, next))
}

fn malformed(server: &str, phase: Phase, detail: String) -> LiveError {
    LiveError::Malformed {
        server: server.into(),
        phase,
        detail,
    }
}

pub(crate) fn timeout(server: &str, phase: Phase, limit: Duration) -> LiveError {
    LiveError::Timeout {
        server: server.into(),
        phase,
        secs: limit.as_secs().max(1),
        stderr: String::new(),
    }
}

fn init_error(server: &str, e: ClientInitializeError) -> LiveError {
    match e {
        ClientInitializeError::JsonRpcError(data) => {
            let msg = data.message.to_string();
            if msg.to_ascii_lowercase().contains("protocol")
                && msg.to_ascii_lowercase().contains("version")
            {
                LiveError::ProtocolRefused {
                    server: server.into(),
                    detail: format!(
                        "{msg} (mf offered {})",
                        ProtocolVersion::LATEST_WITH_INITIALIZE
                    ),
                }
            } else {
                LiveError::Rpc {
                    server: server.into(),
                    phase: Phase::Init,
                    message: format!("{msg} (code {})", data.code.0),
                }
            }
        }
        ClientInitializeError::NoCompatibleProtocolVersion {
            client_supported,
            server_supported,
        } => LiveError::ProtocolRefused {
            server: server.into(),
            detail: format!("mf speaks {client_supported:?}, the server {server_supported:?}"),
        },
        ClientInitializeError::ExpectedInitResponse(_)
        | ClientInitializeError::ExpectedInitResult(_) => malformed(
            server,
            Phase::Init,
            "the reply to initialize is not an initialize result".into(),
        ),
        other => LiveError::Transport {
            server: server.into(),
            phase: Phase::Init,
            detail: chain(&other),
        },
    }
}

fn service_error(server: &str, phase: Phase, e: ServiceError) -> LiveError {
    match e {
        ServiceError::McpError(data) if data.code == ErrorCode::METHOD_NOT_FOUND => {
            LiveError::MethodNotFound {
                server: server.into(),
            }
        }
        ServiceError::McpError(data) => LiveError::Rpc {
            server: server.into(),
            phase,
            message: format!("{} (code {})", data.message, data.code.0),
        },
        ServiceError::UnexpectedResponse => malformed(
            server,
            phase,
            "the result is not a valid tools/list result".into(),
        ),
        other => LiveError::Transport {
            server: server.into(),
            phase,
            detail: chain(&other),
        },
    }
}

/// An error and its sources, `: `-joined.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(inner) = cur {
        let t = inner.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        cur = inner.source();
    }
    s
}

async fn fetch_http(
    server: &str,
    url: &str,
    authorization: Option<&(String, String)>,
    opts: &LiveOptions,
) -> Result<Listing, LiveError> {
    let parsed = reqwest::Url::parse(url).map_err(|e| {
        LiveError::Invalid(format!("invalid URL {}: {e}", redact_url_for_display(url)))
    })?;
    let mut headers = HashMap::new();
    let secret = authorization.map(|(v, _)| v.clone());
    if let Some((value, origin)) = authorization
        && origin_of(&parsed) == *origin
    {
        if parsed.scheme() != "https" && !parsed.host_str().is_some_and(is_loopback_host) {
            return Err(LiveError::InsecureAuth {
                origin: origin.clone(),
            });
        }
        let mut v = reqwest::header::HeaderValue::from_str(value).map_err(|_| {
            LiveError::Invalid("MF_HTTP_AUTHORIZATION is not a valid header value".into())
        })?;
        v.set_sensitive(true);
        headers.insert(reqwest::header::AUTHORIZATION, v);
    }
    let redirected: Arc<Mutex<Option<String>>> = Arc::default();
    let seen = Arc::clone(&redirected);
    let policy = reqwest::redirect::Policy::custom(move |attempt| {
        if let Ok(mut s) = seen.lock() {
            *s = Some(redact_url_for_display(attempt.url().as_str()));
        }
        attempt.error("redirects are refused")
    });
    let client = crate::util::http::client_builder()
        .redirect(policy)
        .connect_timeout(opts.timeout_start)
        .build()
        .map_err(|e| LiveError::Invalid(format!("cannot build the HTTP client: {e}")))?;
    let mut config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(headers);
    config.max_json_response_size = opts.max_listing_bytes;
    config.max_sse_event_size = opts.max_listing_bytes;
    config.reinit_on_expired_session = false;
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let result = session(server, transport, None, opts).await;
    let redirect = redirected.lock().ok().and_then(|mut s| s.take());
    result.map_err(|e| match redirect {
        Some(location) => LiveError::Redirect {
            server: server.into(),
            location,
        },
        None => scrub_error(e, secret.as_deref()),
    })
}

/// Replace a credential wherever it might appear in an error message.
fn scrub_error(e: LiveError, secret: Option<&str>) -> LiveError {
    let Some(secret) = secret.filter(|s| !s.is_empty()) else {
        return e;
    };
    let scrub = |s: String| s.replace(secret, "<redacted>");
    match e {
        LiveError::Transport {
            server,
            phase,
            detail,
        } => LiveError::Transport {
            server,
            phase,
            detail: scrub(detail),
        },
        LiveError::Rpc {
            server,
            phase,
            message,
        } => LiveError::Rpc {
            server,
            phase,
            message: scrub(message),
        },
        LiveError::Malformed {
            server,
            phase,
            detail,
        } => LiveError::Malformed {
            server,
            phase,
            detail: scrub(detail),
        },
        LiveError::ProtocolRefused { server, detail } => LiveError::ProtocolRefused {
            server,
            detail: scrub(detail),
        },
        other => other,
    }
}

/// What the stdout tap saw: byte count against the cap, raw `tools/list` results in arrival
/// order, and the first line that was not JSON.
#[derive(Debug, Default)]
pub(crate) struct TapState {
    total: usize,
    cap: usize,
    over_cap: bool,
    line: Vec<u8>,
    pages: std::collections::VecDeque<Value>,
    garbage: Option<String>,
}

impl TapState {
    fn feed(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.total += bytes.len();
        if self.total > self.cap {
            self.over_cap = true;
            return Err(std::io::Error::other(
                "server output over the listing size cap",
            ));
        }
        for chunk in bytes.split_inclusive(|b| *b == b'\n') {
            self.line.extend_from_slice(chunk);
            if chunk.ends_with(b"\n") {
                let line = std::mem::take(&mut self.line);
                self.take_line(&line);
            }
        }
        Ok(())
    }

    fn take_line(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(mut v) => {
                if v.pointer("/result/tools").is_some_and(Value::is_array)
                    && let Some(result) = v.get_mut("result")
                {
                    self.pages.push_back(result.take());
                }
            }
            Err(_) if self.garbage.is_none() => {
                self.garbage = Some(text.chars().take(120).collect())
            }
            Err(_) => {}
        }
    }
}

/// The child's stdout, counted and copied into a [`TapState`] as rmcp reads it.
struct Tap<R> {
    inner: R,
    state: Arc<Mutex<TapState>>,
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for Tap<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        if let std::task::Poll::Ready(Ok(())) = &polled {
            let fresh = &buf.filled()[before..];
            let mut state = self
                .state
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            state.feed(fresh)?;
        }
        polled
    }
}

/// Kills the child's whole process group when dropped: every exit path, including panics,
/// timeouts and a Ctrl-C that drops the future.
struct GroupGuard {
    pid: Option<u32>,
}

impl GroupGuard {
    fn kill(&mut self) {
        if let Some(pid) = self.pid.take() {
            kill_group(pid);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kill the process group `pid` leads and, on Linux, its descendants that left the group
/// (used by stdio servers here and by `exec`'s supervisor).
#[cfg(unix)]
pub fn kill_group(pid: u32) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    if let Ok(raw) = i32::try_from(pid) {
        #[cfg(target_os = "linux")]
        let tree = reaper::descendants(pid);
        // The child leads its own group (process_group(0)), so its pid is the group id.
        let _ = killpg(Pid::from_raw(raw), Signal::SIGKILL);
        #[cfg(target_os = "linux")]
        reaper::kill_escaped(pid, &tree);
    }
}

/// Linux: descendants that left the server's process group (`setsid`, `setpgid`) are found
/// through `/proc` and killed too. mf is a child subreaper (`PR_SET_CHILD_SUBREAPER`, set before
/// the first server starts), so a grandchild whose parent died is re-parented to mf rather than
/// to init, and is still found after the server itself is gone.
#[cfg(target_os = "linux")]
mod reaper {
    use std::collections::{BTreeMap, BTreeSet};

    use nix::sys::signal::{Signal, kill};
    use nix::sys::wait::{WaitPidFlag, waitpid};
    use nix::unistd::Pid;

    /// The variable that marks a server's process tree: each server gets a value of its own,
    /// which its descendants inherit, so an orphan re-parented to mf is known as the server's
    /// (and no other child of mf is ever touched).
    pub const MARK: &str = "MF_STDIO_SESSION";

    /// Each running server's pid → its mark.
    static SERVERS: std::sync::Mutex<BTreeMap<u32, String>> =
        std::sync::Mutex::new(BTreeMap::new());

    /// A fresh mark value.
    pub fn new_mark() -> String {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{}-{n}-{nanos}", std::process::id())
    }

    /// Note a server mf started, with its mark.
    pub fn register(pid: u32, mark: String) {
        SERVERS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(pid, mark);
    }

    /// Whether process `pid` carries `mark` in its environment.
    fn marked(pid: u32, mark: &str) -> bool {
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            return false;
        };
        let want = format!("{MARK}={mark}");
        env.split(|b| *b == 0).any(|v| v == want.as_bytes())
    }

    /// Become a child subreaper, once per process.
    pub fn become_subreaper() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = nix::sys::prctl::set_child_subreaper(true);
        });
    }

    /// pid → (parent pid, state) of every process in `/proc`.
    fn table() -> BTreeMap<u32, (u32, char)> {
        let mut out = BTreeMap::new();
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return out;
        };
        for entry in dir.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // `pid (comm) S ppid …`; comm may hold ") ", so split at the last one.
            let Some((_, rest)) = stat.rsplit_once(") ") else {
                continue;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next().and_then(|s| s.chars().next()).unwrap_or('?');
            if let Some(ppid) = fields.next().and_then(|p| p.parse().ok()) {
                out.insert(pid, (ppid, state));
            }
        }
        out
    }

    /// Every descendant of `root` now (not `root` itself).
    pub fn descendants(root: u32) -> BTreeSet<u32> {
        let table = table();
        let mut found = BTreeSet::new();
        let mut frontier = vec![root];
        while let Some(p) = frontier.pop() {
            for (child, (ppid, _)) in &table {
                if *ppid == p && *child != root && found.insert(*child) {
                    frontier.push(*child);
                }
            }
        }
        found
    }

    /// Kill `tree` (the server's descendants seen before its group was killed), then, for a
    /// short while, whatever of it re-parents to mf, with its own descendants; reap them.
    pub fn kill_escaped(server: u32, tree: &BTreeSet<u32>) {
        let me = std::process::id();
        let mark = SERVERS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&server);
        let mut doomed: BTreeSet<u32> = tree.clone();
        // Orphans already re-parented to mf (their parent, the server or one of its children,
        // exited before now): mf's children carrying this server's mark.
        if let Some(mark) = &mark {
            for (pid, (ppid, _)) in table() {
                if ppid == me && pid != server && marked(pid, mark) {
                    doomed.insert(pid);
                }
            }
        }
        for _ in 0..50 {
            let table = table();
            // Orphans of the tree re-parented to mf, and anything below a doomed process.
            let mut grew = true;
            while grew {
                grew = false;
                for (pid, (ppid, _)) in &table {
                    if *pid != server && doomed.contains(ppid) && doomed.insert(*pid) {
                        grew = true;
                    }
                }
            }
            let mut left = false;
            for pid in &doomed {
                let Some((ppid, state)) = table.get(pid) else {
                    continue;
                };
                let Ok(raw) = i32::try_from(*pid) else {
                    continue;
                };
                if *state != 'Z' && *state != 'X' {
                    let _ = kill(Pid::from_raw(raw), Signal::SIGKILL);
                    left = true;
                }
                if *ppid == me {
                    let _ = waitpid(Pid::from_raw(raw), Some(WaitPidFlag::WNOHANG));
                }
            }
            let server_alive = table
                .get(&server)
                .is_some_and(|(_, s)| *s != 'Z' && *s != 'X');
            if !left && !server_alive {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// Nothing to kill by group outside Unix.
#[cfg(not(unix))]
pub fn kill_group(_pid: u32) {}

/// The last `cap` bytes a child wrote on stderr.
#[derive(Debug, Default)]
struct StderrTail {
    buf: Vec<u8>,
    cap: usize,
}

impl StderrTail {
    fn render(&self) -> String {
        let text = String::from_utf8_lossy(&self.buf);
        let lines: Vec<&str> = text.lines().collect();
        let start = lines.len().saturating_sub(20);
        let mut out = lines[start..]
            .iter()
            .map(|l| format!("  | {l}"))
            .collect::<Vec<_>>()
            .join("\n");
        if out.is_empty() {
            out = "  | (nothing)".into();
        }
        out
    }
}

async fn fetch_stdio(
    server: &str,
    program: &str,
    args: &[String],
    env: &[(String, OsString)],
    cwd: Option<&std::path::Path>,
    opts: &LiveOptions,
) -> Result<Listing, LiveError> {
    use std::process::Stdio;
    let mut cmd = tokio::process::Command::new(program);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    cmd.args(args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    let mark = {
        reaper::become_subreaper();
        let mark = reaper::new_mark();
        cmd.env(reaper::MARK, &mark);
        mark
    };
    let spawned = tokio::time::timeout(opts.timeout_start, async { cmd.spawn() })
        .await
        .map_err(|_| timeout(server, Phase::Start, opts.timeout_start))?;
    let mut child = spawned.map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => LiveError::CommandNotFound {
            server: server.into(),
            program: program.into(),
        },
        _ => LiveError::Spawn {
            server: server.into(),
            program: program.into(),
            reason: e.to_string(),
        },
    })?;
    let mut guard = GroupGuard { pid: child.id() };
    #[cfg(target_os = "linux")]
    if let Some(pid) = child.id() {
        reaper::register(pid, mark);
    }
    let (Some(stdin), Some(stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(LiveError::Spawn {
            server: server.into(),
            program: program.into(),
            reason: "no stdio pipes".into(),
        });
    };
    let tail = Arc::new(Mutex::new(StderrTail {
        buf: Vec::new(),
        cap: opts.stderr_tail_bytes,
    }));
    let tail_writer = Arc::clone(&tail);
    let stderr_task = tokio::spawn(async move {
        use tokio::io::AsyncReadExt;
        let mut chunk = [0u8; 8192];
        while let Ok(n) = stderr.read(&mut chunk).await {
            if n == 0 {
                break;
            }
            let mut t = tail_writer
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            t.buf.extend_from_slice(&chunk[..n]);
            if t.buf.len() > t.cap {
                let excess = t.buf.len() - t.cap;
                t.buf.drain(..excess);
            }
        }
    });
    let state = Arc::new(Mutex::new(TapState {
        cap: opts.max_listing_bytes,
        ..TapState::default()
    }));
    let tap = Tap {
        inner: stdout,
        state: Arc::clone(&state),
    };
    let result = session(server, (tap, stdin), Some(Arc::clone(&state)), opts).await;

    // Refine a failure with what the process did, then stop it and its group whatever happened.
    let exited = match &result {
        Ok(_) => None,
        Err(_) => match tokio::time::timeout(Duration::from_millis(300), child.wait()).await {
            Ok(Ok(status)) => Some(status),
            _ => None,
        },
    };
    let phase_of = |e: &LiveError| match e {
        LiveError::Timeout { phase, .. }
        | LiveError::Transport { phase, .. }
        | LiveError::Malformed { phase, .. } => Some(*phase),
        _ => None,
    };
    guard.kill();
    let _ = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
    let _ = tokio::time::timeout(Duration::from_millis(500), stderr_task).await;
    let stderr_text = tail.lock().map(|t| t.render()).unwrap_or_default();
    let (over_cap, garbage) = state
        .lock()
        .map(|s| (s.over_cap, s.garbage.clone()))
        .unwrap_or_default();
    result.map_err(|e| {
        if over_cap {
            return LiveError::TooLarge {
                server: server.into(),
                limit: opts.max_listing_bytes,
            };
        }
        let phase = phase_of(&e);
        if let Some(g) = &garbage
            && matches!(
                e,
                LiveError::Timeout { .. }
                    | LiveError::Transport { .. }
                    | LiveError::Malformed { .. }
            )
        {
            return malformed(
                server,
                phase.unwrap_or(Phase::Init),
                format!(
                    "the server wrote non-JSON-RPC text on stdout (logs belong on stderr): {g:?}"
                ),
            );
        }
        match (e, exited) {
            (
                LiveError::Transport { phase, .. } | LiveError::Malformed { phase, .. },
                Some(status),
            ) => LiveError::Exited {
                server: server.into(),
                phase,
                status: status.to_string(),
                stderr: stderr_text,
            },
            (
                LiveError::Timeout {
                    server,
                    phase,
                    secs,
                    ..
                },
                _,
            ) => LiveError::Timeout {
                server,
                phase,
                secs,
                stderr: format!("; its stderr ends with:\n{stderr_text}"),
            },
            (other, _) => other,
        }
    })
}
