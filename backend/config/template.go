package config

// Template is the commented configuration `costpilot init` writes. It
// parses to the same settings as Default, so a fresh install behaves the
// same with or without it.
const Template = `# costpilot configuration. Every key is optional unless noted.
# Providers: source is demo (built-in simulated account), api (live SDK
# calls, credentials from the SDK's own chain or the OS keyring) or export
# (billing export files: those named in export_paths, loaded when they
# change, and whatever "costpilot import" stored). A provider left out of
# this file is disabled.
aws:
  enabled: true
  source: demo
  region: us-east-1          # required when aws is enabled
  account_id: ""
  # profile: default         # api: an AWS profile; AWS_PROFILE etc. also work
  # export_paths: ["/data/cur/*.csv.gz"]
  # inventory: api           # source: export: inventory and utilization from the live API (read-only)
  # prometheus:              # utilization from Prometheus (node-exporter by default)
  #   url: http://prometheus:9090
  #   id_label: instance_id  # or id_label: instance with id_regex: '^(i-[0-9a-f]+)'
  #   type_label: instance_type
  # athena:                  # source: athena, the CUR 2.0 table queried in Athena
  #   database: cur_exports
  #   table: cur2
  #   workgroup: primary
  #   output_location: s3://my-athena-results/costpilot/
  #   format: cur2           # cur2, focus or legacy
azure:
  enabled: true
  source: demo
  subscription_id: ""        # required for source: api
  # cloud: public             # china, usgovernment, or custom with authority_host and endpoint
gcp:
  enabled: true
  source: demo
  project_id: ""             # required for source: api
  # billing_table: project.dataset.gcp_billing_export_v1_XXXX
oci:
  enabled: true
  source: demo
  region: us-ashburn-1
  tenancy_id: ""             # api: or use ~/.oci/config
  user_id: ""
  fingerprint: ""
  private_key_path: ""
# AI vendors' cost APIs: the admin key from OPENAI_ADMIN_KEY / ANTHROPIC_ADMIN_KEY
# or the credential store (field admin_key), never from this file.
# openai: {enabled: true}
# anthropic: {enabled: true}

optimization:
  cpu_utilization_threshold: 0.8     # keep p95 CPU under 80 % after rightsizing
  memory_utilization_threshold: 0.8

# data_dir: ~/.local/share/costpilot  # SQLite history and cache
# output_dir: ""                      # reports; default <data_dir>/reports
log_level: INFO

analysis:
  cost_metric: billed        # billed, effective (amortized) or list
forecast:
  interval: 0.95             # 0.80 or 0.95

currency:
  base: USD
  rates: {}                  # e.g. {EUR: 1.08}: 1 EUR = 1.08 USD

# budgets:
#   - name: prod-monthly
#     amount: 50000
#     period: monthly        # monthly or quarterly
#     scope: {provider: aws, tag: "environment:prod"}
alerts:
  thresholds: [80, 100]      # percent of budget, actual and forecast
  webhook_url: ""            # Slack-compatible; used when notifications is on
# outbound:
#   allow_metadata_addresses: false   # true lets URLs reach link-local and cloud metadata addresses

# Reports made and delivered on a schedule (due at an hour, UTC), by email
# and/or as a message with the headline numbers to alerts.webhook_url.
# The dashboard and the desktop app deliver them while they run; each
# schedule and period is delivered once, and a failure is retried.
# reports:
#   schedules:
#     - name: monthly-summary
#       frequency: monthly   # daily, weekly (weekday: monday..sunday) or monthly (day: 1..28)
#       day: 1
#       hour: 6              # UTC
#       type: summary        # comprehensive, summary or recommendations
#       format: pdf          # html, pdf or json
#       period: last_month   # days (30), mtd, last_month, qtd, last_quarter, ytd, last_12_months
#       recipients: [finops@example.com]
#       webhook: false
#   smtp:
#     host: smtp.example.com
#     port: 587
#     security: starttls     # starttls, tls (port 465) or none (loopback only)
#     from: costpilot@example.com
#     username: costpilot    # password: COSTPILOT_SMTP_PASSWORD, or the credential store
#     ca_file: ""            # PEM of a private CA to trust

dashboard:
  enabled: true
  host: 0.0.0.0
  port: 5000
  debug: false
  auth:
    enabled: true
    session_timeout: 3600
    max_login_attempts: 5
    # Single sign-on with OpenID Connect; local users stay for break-glass.
    # oidc:
    #   enabled: true
    #   issuer: https://login.example.com
    #   client_id: costpilot
    #   client_secret_env: COSTPILOT_OIDC_CLIENT_SECRET   # the secret itself never goes here
    #   redirect_url: https://costpilot.example.com/auth/oidc/callback
    #   scopes: [openid, email, profile]
    #   allowed_domains: [example.com]
    #   allowed_groups: []
    #   groups_claim: groups
    #   roles: {finops-admins: admin, finops: editor}
    #   default_role: viewer                                # "" refuses users no role maps
  security:
    secret_key: ""           # or COSTPILOT_SECRET_KEY; generated once if empty
    ssl_enabled: false
    ssl_cert: ""
    ssl_key: ""
    trusted_proxies: []      # X-Forwarded-For is honoured only from these
  features:
    real_time_updates: true
    interactive_charts: true
    export_reports: true
    notifications: false
  rate_limit:
    enabled: true
  read_timeout: 10           # seconds a request body may take (an upload: between reads)
  # public_url: https://costs.example.com   # links in scheduled report messages

import:
  max_resources: 100000      # distinct resources and charges per import (held in memory)
  max_daily_lines: 20000000  # distinct daily lines per import

demo:
  beside_real: false         # keep demo providers shown once another provider has imported or synced data

mcp:
  allow_writes: false        # AI assistants (costpilot mcp, /mcp) may also dismiss recommendations and write reports

performance:
  cache:
    enabled: true
    ttl: 3600
  parallel:
    max_workers: 4

monitoring:
  metrics:
    enabled: true
`
