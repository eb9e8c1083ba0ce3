#!/usr/bin/env bash
# Build the scan-recall corpus: real MCP servers' published source, each with its live `tools/list`.
#
# Each server is pinned to an exact version. The script installs it (npm: its own `--prefix` with
# `--ignore-scripts`; PyPI: its own venv) under target/scan-corpus/<set>/<name>/, starts it over
# stdio with a throwaway HOME and dummy credentials where it insists on some, lists its tools twice
# with the official TypeScript MCP SDK (scripts/capture-tools.mjs, all pages, exactly as served),
# and writes
#   tests/fixtures/scan-corpus/<set>/<name>.tools.json   {"tools": [...]}    (the ground truth)
#   tests/fixtures/scan-corpus/<set>/manifest.tsv        name, registry, package, version, scan_root,
#                                                        patterns, tools, disabled
#   tests/fixtures/scan-corpus/<set>/SOURCES.md          how each server was started and when
# scan_root is the directory of the package's own files, relative to the repository root: npm
# `target/scan-corpus/<set>/<name>/node_modules/<pkg>`; PyPI the distribution's top-level import
# directory in the venv's site-packages (found from its RECORD; where the distribution has several,
# the one holding the module its console script starts, or the row's `root=` override). That is
# what `mf scan` reads (benches/scan_recall.py); the package sources are not committed.
#
# The `patterns` of each row were labelled by reading the package's source before any mf run
# (vocabulary: tests/fixtures/scan-corpus/README.md). `disabled` names tools the source defines but
# does not serve with the environment shown (behind a flag or an env var), as seen in the source.
#
# Two disjoint sets:
#   --set tuned (default)   may be used to tune the scanner
#   --set blind             never used for tuning: its recall is the headline figure
# No server here is in any other fixture set of the repository (tests/fixtures/*/SOURCES.md), nor
# an MCP reference server, GitHub, GitLab, Slack, Google Maps, Puppeteer, Playwright, Notion, or a
# fork of one.
#
# Some PyPI servers were written for the `mcp` 1.x SDK and fail to import or start with the 2.x pip
# resolves today; their row gives a pip constraint (`mcp<2`) installed alongside the pinned server,
# shown in SOURCES.md.
#
# Idempotent: installs are skipped when the pinned version is already there (the stamp is written
# only after an install succeeds), and a server whose captured listing is unchanged keeps the
# capture date it had in SOURCES.md. A server that fails to install or to list keeps its snapshot
# and its manifest and SOURCES.md rows as they were; the script then names it and exits 1. A server
# whose two listings differ keeps the first and is named in SOURCES.md's `twice` column.
#
# Usage:   scripts/capture-scan-corpus.sh [--set tuned|blind] [NAME...]   (no NAME: every server of the set)
# Knobs:   SDK_VERSION=1.32.2   PYTHON=python3 (3.11)   CAPTURE_TIMEOUT=120 (seconds per listing)
# Needs:   node >= 18, npm, python3 with venv; reaches only the npm registry and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SET=tuned
if [[ "${1:-}" == --set ]]; then SET="${2:-}"; shift 2 || true; fi
case "$SET" in
  tuned|blind) ;;
  *) echo "capture-scan-corpus.sh: unknown set '$SET' (expected --set tuned or blind)" >&2; exit 2 ;;
esac
OUT_DIR="$ROOT/tests/fixtures/scan-corpus/$SET"
BASE_REL=target/scan-corpus
WORK_REL="$BASE_REL/$SET"
WORK_DIR="$ROOT/$WORK_REL"
SDK_VERSION="${SDK_VERSION:-1.32.2}"
PYTHON="${PYTHON:-python3}"
CAPTURE_TIMEOUT="${CAPTURE_TIMEOUT:-120}"

# name | registry | package | version | command (a bin of the package) and arguments | environment
#      | pip extras (PyPI only: constraints installed alongside, e.g. mcp<2; `root=DIR` picks the
#        scan root among several top-level dirs) | patterns | disabled tools
# `{data}` in arguments or environment is replaced by the server's scratch directory.
SERVERS_TUNED=(
  "attio|npm|attio-mcp|1.6.1|attio-mcp|ATTIO_API_KEY=dummy||ts-lowlevel-consts,ts-imported-defs,ts-const-names,ts-compiled-only|"
  "backlog|npm|backlog-mcp-server|0.20.4|backlog-mcp-server|BACKLOG_DOMAIN=dummy.backlog.com BACKLOG_API_KEY=dummy||ts-wrapper,ts-loop-register,ts-imported-defs,ts-compiled-only|"
  "paperless|npm|@baruchiro/paperless-mcp|2.2.1|paperless-mcp http://127.0.0.1:1 dummy|PAPERLESS_URL=http://127.0.0.1:1 PAPERLESS_API_KEY=dummy||ts-mcpserver-literal,ts-compiled-only|"
  "chrome-devtools|npm|chrome-devtools-mcp|1.11.0|chrome-devtools-mcp|CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1||ts-loop-register,ts-imported-defs,ts-const-names,ts-compiled-only|analyze_heapsnapshot_contexts,click_at,close_heapsnapshot,compare_heapsnapshots,evaluate,execute_webmcp_tool,get_devtools_comments,get_heapsnapshot_class_nodes,get_heapsnapshot_details,get_heapsnapshot_dominators,get_heapsnapshot_duplicate_strings,get_heapsnapshot_edges,get_heapsnapshot_object_details,get_heapsnapshot_retainers,get_heapsnapshot_retaining_paths,get_heapsnapshot_summary,get_os_app_state,get_tab_id,install_extension,install_pwa,launch_pwa,list_extensions,list_webmcp_tools,navigate,open_devtools,query_heapsnapshot_objects,reload_extension,resolve_devtools_comment,reveal_in_devtools,screenshot,trigger_extension_action,uninstall_extension,uninstall_pwa"
  "currents|npm|@currents/mcp|2.1.1|mcp|CURRENTS_API_KEY=dummy||ts-mcpserver-literal,ts-imported-defs,ts-compiled-only|"
  "talk-to-figma|npm|cursor-talk-to-figma-mcp|0.3.5|cursor-talk-to-figma-mcp|||ts-mcpserver-literal,ts-compiled-only|"
  "ios-simulator|npm|ios-simulator-mcp|2.1.0|ios-simulator-mcp|||ts-mcpserver-literal,ts-compiled-only|"
  "coolify|npm|@masonator/coolify-mcp|3.5.0|coolify-mcp|COOLIFY_BASE_URL=http://127.0.0.1:1 COOLIFY_ACCESS_TOKEN=dummy||ts-wrapper,ts-class-members,ts-compiled-only|list_instances"
  "mobile|npm|@mobilenext/mobile-mcp|1.0.4|mcp-server-mobile|||ts-wrapper,ts-compiled-only|"
  "paddle|npm|@paddle/paddle-mcp|0.1.6|paddle|PADDLE_API_KEY=dummy PADDLE_ENVIRONMENT=sandbox||ts-loop-register,ts-imported-defs,ts-class-members,ts-compiled-only|activate_subscription,archive_discount_group,cancel_subscription,delete_notification_setting,delete_saved_payment_method,get_active_subscribers_metrics,get_chargebacks_metrics,get_checkout_conversion_metrics,get_monthly_recurring_revenue_change_metrics,get_monthly_recurring_revenue_metrics,get_refunds_metrics,get_revenue_metrics,pause_subscription,resume_subscription,revise_transaction,revoke_client_side_token,update_address,update_business,update_customer,update_discount,update_discount_group,update_notification_setting,update_price,update_product,update_simulation,update_subscription,update_transaction"
  "perplexity|npm|@perplexity-ai/mcp-server|1.2.1|perplexity-mcp|PERPLEXITY_API_KEY=dummy||ts-mcpserver-literal,ts-compiled-only|"
  "roblox-studio|npm|robloxstudio-mcp|2.6.0|robloxstudio-mcp|||ts-lowlevel-consts,ts-loop-register,ts-compiled-only|"
  "shortcut|npm|@shortcut/mcp|0.25.0|mcp-server-shortcut|SHORTCUT_API_TOKEN=dummy||ts-wrapper,ts-class-members,ts-compiled-only|"
  "tavily|npm|tavily-mcp|0.2.22|tavily-mcp|TAVILY_API_KEY=dummy||ts-lowlevel-inline,ts-class-members,ts-compiled-only|"
  "azure-devops|npm|@tiberriver256/mcp-server-azure-devops|0.1.48|mcp-server-azure-devops|AZURE_DEVOPS_ORG_URL=https://dev.azure.com/dummy AZURE_DEVOPS_AUTH_METHOD=pat AZURE_DEVOPS_PAT=dummy||ts-lowlevel-consts,ts-imported-defs,ts-zod-to-json,ts-compiled-only|"
  "variflight|npm|@variflight-ai/variflight-mcp|1.0.3|variflight-mcp|VARIFLIGHT_API_KEY=dummy||ts-mcpserver-literal,ts-compiled-only|"
  "grafana-leval|npm|@leval/mcp-grafana|1.1.7|mcp-grafana|GRAFANA_URL=http://127.0.0.1:1 GRAFANA_SERVICE_ACCOUNT_TOKEN=dummy||ts-wrapper,ts-lowlevel-consts,ts-imported-defs,ts-zod-to-json,ts-class-members,ts-compiled-only|"
  "bitwarden|npm|@bitwarden/mcp-server|2026.7.0|mcp-server-bitwarden|BW_SESSION=dummy||ts-lowlevel-consts,ts-imported-defs,ts-compiled-only|"
  "reddit-buddy|npm|reddit-mcp-buddy|1.1.14|reddit-mcp-buddy|||ts-lowlevel-consts,ts-zod-to-json,ts-compiled-only|"
  "bnb-chain|npm|@bnb-chain/mcp|1.5.1|bnbchain-mcp|||ts-lowlevel-consts,ts-zod-to-json,ts-mcpserver-literal,ts-compiled-only|"
  "drawio|npm|@drawio/mcp|1.6.1|drawio-mcp|||ts-lowlevel-consts|"
  "cloud-run|npm|@google-cloud/cloud-run-mcp|1.10.0|cloud-run-mcp|GOOGLE_CLOUD_PROJECT=dummy||ts-mcpserver-literal|"
  "brightdata|npm|@brightdata/mcp|2.11.3|mcp|API_TOKEN=dummy||ts-fastmcp,ts-loop-register|diagnose_scraping_approach,extract,list_dataset_fields,scrape_as_html,scraping_browser_click_ref,scraping_browser_fill_form,scraping_browser_get_html,scraping_browser_get_text,scraping_browser_go_back,scraping_browser_go_forward,scraping_browser_navigate,scraping_browser_network_requests,scraping_browser_screenshot,scraping_browser_scroll,scraping_browser_scroll_to_ref,scraping_browser_snapshot,scraping_browser_type_ref,scraping_browser_wait_for_ref,search_dataset,session_stats,web_scraping_strategy"
  "openapi-petstore|npm|@ivotoby/openapi-mcp-server|1.16.1|openapi-mcp-server|API_BASE_URL=http://127.0.0.1:1 OPENAPI_SPEC_PATH={data}/openapi.json||dynamic,ts-compiled-only|"
  "harbor|pypi|harbor-registry-mcp|0.2.0|harbor-registry-mcp|HARBOR_URL=http://127.0.0.1:1 HARBOR_USERNAME=dummy HARBOR_PASSWORD=dummy||py-fastmcp-decorator|"
  "comfy|pypi|comfy-mcp|0.10.0|comfy-mcp|COMFY_URL=http://127.0.0.1:1||py-fastmcp-decorator|"
  "alpaca|pypi|alpaca-mcp-server|2.4.0|alpaca-mcp-server|ALPACA_API_KEY=dummy ALPACA_SECRET_KEY=dummy||dynamic,py-loop-register,py-fastmcp-decorator|"
  "academic-search|pypi|academic-search|0.8.0|academic-search|||py-fastmcp-decorator|"
  "aerospace|pypi|aerospace-mcp|0.1.0|aerospace-mcp|||py-loop-register|"
  "jcodemunch|pypi|jcodemunch-mcp|1.108.399|jcodemunch-mcp|||py-lowlevel|analyze_perf,assemble_task_context,assess,audit_agent_config,check_delete_safe,check_edit_safe,check_embedding_drift,check_references,check_rename_safe,diff_health_radar,digest,embed_repo,explore,finalize_handoff,find_dead_code,find_hot_paths,find_implementations,find_importers,find_references,find_similar_symbols,find_unused_paths,get_architecture_metrics,get_blast_radius,get_call_hierarchy,get_changed_symbols,get_churn_rate,get_class_hierarchy,get_context_bundle,get_coupling_metrics,get_cross_repo_map,get_decorator_census,get_delivery_metrics,get_dependency_cycles,get_dependency_graph,get_endpoint_impact,get_extraction_candidates,get_file_content,get_file_outline,get_file_risk,get_file_tree,get_group_contracts,get_hotspots,get_impact_preview,get_layer_violations,get_parity_map,get_pr_risk_profile,get_project_intel,get_ranked_context,get_redaction_log,get_related_symbols,get_repo_health,get_repo_map,get_repo_outline,get_runtime_coverage,get_session_context,get_session_snapshot,get_session_stats,get_signal_chains,get_symbol_complexity,get_symbol_diff,get_symbol_importance,get_symbol_provenance,get_symbol_source,get_tectonic_map,get_untested_symbols,get_watch_status,import_runtime_signal,index_dependency,index_file,index_folder,index_repo,invalidate_cache,list_repos,list_workspaces,plan_refactoring,plan_turn,register_edit,render_diagram,resolve_repo,search_ast,search_columns,search_symbols,search_text,suggest_corrections,suggest_queries,summarize_repo,test_summarizer,trace,triage,tune_weights,winnow_symbols,workflow"
  "billing-cost|pypi|awslabs-billing-cost-management-mcp-server|0.0.42|awslabs.billing-cost-management-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR||py-fastmcp-decorator|"
  "prometheus|pypi|prometheus-mcp-server|1.6.2|prometheus-mcp-server|PROMETHEUS_URL=http://127.0.0.1:1||py-fastmcp-decorator|"
  "outline|pypi|mcp-outline|1.10.1|mcp-outline|OUTLINE_API_KEY=dummy OUTLINE_API_URL=http://127.0.0.1:1/api||py-fastmcp-decorator|"
  "blender|pypi|mcp-for-blender|2.2.4|mcp-for-blender|||py-fastmcp-decorator,py-custom-decorator|"
  "listmonk|pypi|listmonk-mcp-bridge|0.4.40|listmonk-mcp-bridge|LISTMONK_URL=http://127.0.0.1:1 LISTMONK_USERNAME=dummy LISTMONK_PASSWORD=dummy||py-custom-decorator|"
  "mastodon|pypi|mastodon-mcp-server|1.0.5|mastodon-mcp|MASTODON_INSTANCE_URL=http://127.0.0.1:1 MASTODON_ACCESS_TOKEN=dummy||py-fastmcp-decorator|"
  "habitica|pypi|mcp-habitica|0.2.2|mcp-habitica|HABITICA_USER_ID=dummy HABITICA_API_TOKEN=dummy|mcp<2|py-lowlevel|"
  "pptx|pypi|chuk-mcp-pptx|0.4|chuk-mcp-pptx|||py-fastmcp-decorator|"
)
SERVERS_BLIND=(
  "fr24|npm|@flightradar24/fr24api-mcp|1.0.2|mcp-fr24api-mcp|FR24_API_KEY=dummy||ts-mcpserver-literal,ts-compiled-only|"
  "quickbooks|npm|quickbooks-mcp|0.11.0|quickbooks-mcp|QUICKBOOKS_CLIENT_ID=dummy QUICKBOOKS_CLIENT_SECRET=dummy||ts-lowlevel-consts,ts-imported-defs,ts-compiled-only|"
  "hyperbrowser|npm|hyperbrowser-mcp|1.0.25|hyperbrowser-mcp|HYPERBROWSER_API_KEY=dummy||ts-const-names,ts-imported-defs,ts-compiled-only|"
  "open-meteo|npm|open-meteo-mcp-server|2.1.0|open-meteo-mcp-server|||ts-loop-register,ts-imported-defs,ts-compiled-only|"
  "european-parliament|npm|european-parliament-mcp-server|1.1.26|european-parliament-mcp-server|||ts-lowlevel-consts,ts-imported-defs,ts-class-members,ts-compiled-only|"
  "lunchmoney|npm|@akutishevsky/lunchmoney-mcp|3.0.0|lunchmoney-mcp|LUNCHMONEY_API_TOKEN=dummy||ts-mcpserver-literal,ts-compiled-only|"
  "xero|npm|@xeroapi/xero-mcp-server|0.0.17|xero-mcp-server|XERO_CLIENT_ID=dummy XERO_CLIENT_SECRET=dummy||ts-loop-register,ts-imported-defs,ts-compiled-only|"
  "openfda|pypi|openfda-mcp|0.1.0|openfda-mcp|||py-fastmcp-decorator|"
  "plausible|pypi|plausible-mcp|0.1.2|plausible-mcp|PLAUSIBLE_API_KEY=dummy PLAUSIBLE_BASE_URL=http://127.0.0.1:1||py-fastmcp-decorator|"
  "ghostfolio|pypi|ghostfolio-mcp|1.8.1|ghostfolio-mcp|GHOSTFOLIO_URL=http://127.0.0.1:1 GHOSTFOLIO_TOKEN=dummy||py-fastmcp-decorator|"
  "things|pypi|mcp-server-things|1.12.1|mcp-server-things|||py-fastmcp-decorator|"
  "pagerduty|pypi|clr-pagerduty-mcp|1.0.0|clr-pagerduty-mcp|PAGERDUTY_API_KEY=dummy||py-custom-decorator|"
  "redis|pypi|redis-mcp-server|0.5.1|redis-mcp-server|REDIS_HOST=127.0.0.1 REDIS_PORT=1||py-fastmcp-decorator|"
  "rabbitmq|pypi|amq-mcp-server-rabbitmq|4.0.0|amq-mcp-server-rabbitmq|||py-fastmcp-decorator,py-loop-register|"
)
case "$SET" in
  tuned) SERVERS=("${SERVERS_TUNED[@]}") ;;
  blind) SERVERS=("${SERVERS_BLIND[@]}") ;;
esac

want() { # is server $1 selected on the command line?
  [[ ${#SELECTED[@]} -eq 0 ]] && return 0
  local s; for s in "${SELECTED[@]}"; do [[ "$s" == "$1" ]] && return 0; done; return 1
}
SELECTED=("$@")
names=(); for row in "${SERVERS[@]}"; do names+=("${row%%|*}"); done
for s in "${SELECTED[@]}"; do # a misspelt name would otherwise capture nothing and succeed
  if [[ " ${names[*]} " != *" $s "* ]]; then
    echo "capture-scan-corpus.sh: no server '$s' in set $SET (its servers: ${names[*]})" >&2; exit 2
  fi
done

CLIENT="$ROOT/$BASE_REL/client"
mkdir -p "$CLIENT" "$OUT_DIR" "$WORK_DIR"
# The MCP client: the official TypeScript SDK, pinned.
if [[ "$(cat "$CLIENT/.installed" 2>/dev/null)" != "$SDK_VERSION" ]]; then
  (cd "$CLIENT" && { [[ -f package.json ]] || echo '{"private":true,"type":"module"}' > package.json; } \
    && nice -n 19 npm install --no-audit --no-fund --save-exact --loglevel=error "@modelcontextprotocol/sdk@$SDK_VERSION")
  echo "$SDK_VERSION" > "$CLIENT/.installed"
fi
cp "$ROOT/scripts/capture-tools.mjs" "$CLIENT/capture-tools.mjs"

install_npm() { # dir package version
  local dir="$1" stamp="$1/.installed"
  [[ "$(cat "$stamp" 2>/dev/null)" == "$2@$3" ]] && return 0
  mkdir -p "$dir"
  [[ -f "$dir/package.json" ]] || echo '{"private":true}' > "$dir/package.json"
  # --ignore-scripts: no install step may download a browser or compile a native addon; every
  # server here lists its tools without them.
  nice -n 19 npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --save-exact --loglevel=error "$2@$3" \
    && echo "$2@$3" > "$stamp"
}
install_pypi() { # dir package version extras...
  local dir="$1" pkg="$2" ver="$3" stamp="$1/.installed"; shift 3
  local want_stamp="$pkg==$ver${*:+ $*}"
  [[ "$(cat "$stamp" 2>/dev/null)" == "$want_stamp" ]] && return 0
  [[ -x "$dir/bin/python" ]] || "$PYTHON" -m venv "$dir"
  nice -n 19 "$dir/bin/pip" install --quiet --disable-pip-version-check "$pkg==$ver" "$@" && echo "$want_stamp" > "$stamp"
}
pypi_root() { # venv package command [root-override]: the scan root, relative to the repo root
  "$1/bin/python" - "$2" "$3" "${4:-}" "$ROOT" <<'PY'
import os, sys, sysconfig
from importlib import metadata
pkg, command, override, root = sys.argv[1:5]
site = sysconfig.get_paths()["purelib"]
dist = metadata.distribution(pkg)
tops = set()
for f in dist.files or []:
    parts = f.parts
    if not parts or parts[0].startswith("..") or parts[0].endswith((".dist-info", ".egg-info", ".data")):
        continue
    if parts[0] in ("__pycache__", "bin") or parts[0].endswith(".pth"):
        continue
    tops.add(parts[0])
if override:
    chosen = override
else:
    chosen = None
    eps = [ep for ep in dist.entry_points if ep.group == "console_scripts"]
    ep = next((e for e in eps if e.name == command), eps[0] if eps else None)
    if ep is not None:
        head = ep.value.split(":")[0].split(".")[0]
        for cand in (head, head + ".py"):
            if cand in tops:
                chosen = cand
    if chosen is None:
        dirs = sorted(t for t in tops if os.path.isdir(os.path.join(site, t)))
        chosen = dirs[0] if len(dirs) == 1 else ",".join(dirs)
print(",".join(os.path.relpath(os.path.join(site, c), root) for c in chosen.split(",")))
PY
}

SOURCES="$OUT_DIR/SOURCES.md"
MANIFEST="$OUT_DIR/manifest.tsv"
old_date() { # the capture date SOURCES.md has for server $1, if any
  [[ -f "$SOURCES" ]] || return 0
  awk -F'|' -v n="$1" '{ gsub(/^ +| +$/, "", $2) } $2 == n { gsub(/^ +| +$/, "", $9); print $9 }' "$SOURCES"
}
keep_row() { # keep server $1's SOURCES.md and manifest rows as they are
  if [[ -f "$SOURCES" ]]; then awk -F'|' -v n="$1" '{ k = $2; gsub(/^ +| +$/, "", k) } k == n' "$SOURCES" >> "$ROWS.new"; fi
  if [[ -f "$MANIFEST" ]]; then awk -F'\t' -v n="$1" 'NR > 1 && $1 == n' "$MANIFEST" >> "$MROWS.new"; fi
}

ROWS="$WORK_DIR/sources.rows"; MROWS="$WORK_DIR/manifest.rows"
: > "$ROWS.new"; : > "$MROWS.new"
failed=()
for row in "${SERVERS[@]}"; do
  IFS='|' read -r name registry pkg version cmdline envs extras patterns disabled <<< "$row"
  out="$OUT_DIR/$name.tools.json"
  if ! want "$name"; then
    keep_row "$name"; continue
  fi
  dir="$WORK_DIR/$name"
  data="$ROOT/$BASE_REL/run/$SET/$name/data"; home="$ROOT/$BASE_REL/run/$SET/$name/home"
  rm -rf "$home"; mkdir -p "$data" "$home"
  root_override=""; pipx=()
  for x in $extras; do
    if [[ "$x" == root=* ]]; then root_override="${x#root=}"; else pipx+=("$x"); fi
  done
  if [[ "$registry" == npm ]]; then
    install_npm "$dir" "$pkg" "$version" || { failed+=("$name (install)"); keep_row "$name"; continue; }
    bindir="$dir/node_modules/.bin"
    scan_root="$WORK_REL/$name/node_modules/$pkg"
  else
    install_pypi "$dir" "$pkg" "$version" ${pipx[@]+"${pipx[@]}"} || { failed+=("$name (install)"); keep_row "$name"; continue; }
    bindir="$dir/bin"
    read -r -a argv0 <<< "$cmdline"
    scan_root="$(pypi_root "$dir" "$pkg" "${argv0[0]}" "$root_override")" || { failed+=("$name (scan root)"); keep_row "$name"; continue; }
  fi
  if [[ "$name" == openapi-petstore || "$name" == openapi-proxy ]]; then
    # The OpenAPI document the server turns into tools (a small one written here).
    cp "$ROOT/tests/fixtures/scan-corpus/openapi-sample.json" "$data/openapi.json"
  fi
  cmdline="${cmdline//\{data\}/$data}"; envs="${envs//\{data\}/$data}"
  read -r -a argv <<< "$cmdline"
  read -r -a envv <<< "$envs"
  tmp="$dir.tools.json.tmp"; tmp2="$dir.tools.json.tmp2"
  echo "capturing $name ($pkg@$version)"
  capture() { # OUT
    (cd "$data" && env -i PATH="$bindir:/usr/local/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 ${envv[@]+"${envv[@]}"} \
      timeout "$CAPTURE_TIMEOUT" node "$CLIENT/capture-tools.mjs" "$1" "$bindir/${argv[0]}" "${argv[@]:1}")
  }
  if ! capture "$tmp" > "$dir.capture.log" 2>&1; then
    failed+=("$name (start/list: see $WORK_REL/$name.capture.log)"); rm -f "$tmp"; keep_row "$name"; continue
  fi
  twice=identical
  if ! capture "$tmp2" >> "$dir.capture.log" 2>&1; then
    twice="second listing failed"
  elif ! cmp -s "$tmp" "$tmp2"; then
    twice="DIFFERS"
  fi
  rm -f "$tmp2"
  date_captured="$(date -u +%Y-%m-%d)"
  if [[ -f "$out" ]] && cmp -s "$tmp" "$out"; then
    prev="$(old_date "$name")"; [[ -n "$prev" ]] && date_captured="$prev"
  fi
  mv "$tmp" "$out"
  n="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tools.length)' "$out")"
  shown_env="${envs//$ROOT\//}"; shown_cmd="${cmdline//$ROOT\//}"
  shown_pkg="\`$pkg\`"; [[ ${#pipx[@]} -gt 0 ]] && shown_pkg+=" (with \`${pipx[*]}\`)"
  echo "| $name | $registry | $shown_pkg | $version | $n | \`${shown_env:+$shown_env }${shown_cmd}\` | $twice | $date_captured |" >> "$ROWS.new"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$registry" "$pkg" "$version" "$scan_root" "$patterns" "$n" "$disabled" >> "$MROWS.new"
  echo "  $name: $n tools (listed twice: $twice)"
done

{
  echo "# Sources of the scan-corpus $SET set"
  echo
  echo "Written by \`scripts/capture-scan-corpus.sh --set $SET\`; do not edit by hand. Each snapshot is the"
  echo "server's \`tools/list\` (every page) exactly as served over stdio to the official TypeScript MCP SDK"
  echo "client (@modelcontextprotocol/sdk $SDK_VERSION), with a throwaway HOME and only the environment shown."
  echo "Credentials shown are dummies: no server was given an account, and no edit is made after capture."
  echo "Each server was listed twice; \`twice\` says whether the two listings were byte-identical."
  echo
  echo "| name | registry | package | version | tools | started as (env, then command) | twice | captured (UTC) |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  sort -t'|' -k2,2 "$ROWS.new"
} > "$SOURCES"
{
  printf 'name\tregistry\tpackage\tversion\tscan_root\tpatterns\ttools\tdisabled\n'
  sort -t$'\t' -k1,1 "$MROWS.new"
} > "$MANIFEST"
rm -f "$ROWS.new" "$MROWS.new"

if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'not captured: %s\n' "${failed[@]}" >&2
  exit 1
fi
