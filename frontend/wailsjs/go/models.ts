export namespace app {
	
	export class CostRequest {
	    days?: number;
	    start?: string;
	    end?: string;
	    metric?: string;
	    provider?: string;
	    account?: string;
	    service?: string;
	    tag?: string;
	    period?: string;
	    granularity?: string;
	    group_by?: string;
	    filters?: Record<string, Array<string>>;
	    view?: string;
	
	    static createFrom(source: any = {}) {
	        return new CostRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.days = source["days"];
	        this.start = source["start"];
	        this.end = source["end"];
	        this.metric = source["metric"];
	        this.provider = source["provider"];
	        this.account = source["account"];
	        this.service = source["service"];
	        this.tag = source["tag"];
	        this.period = source["period"];
	        this.granularity = source["granularity"];
	        this.group_by = source["group_by"];
	        this.filters = source["filters"];
	        this.view = source["view"];
	    }
	}
	export class Info {
	    version: string;
	    data_dir: string;
	    credential_backend: string;
	    self_test: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.data_dir = source["data_dir"];
	        this.credential_backend = source["credential_backend"];
	        this.self_test = source["self_test"];
	    }
	}
	export class RenderCheck {
	    ok: boolean;
	    expected_total: number;
	    startup_ms: number;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new RenderCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.expected_total = source["expected_total"];
	        this.startup_ms = source["startup_ms"];
	        this.message = source["message"];
	    }
	}
	export class RenderReport {
	    rendered_text: string;
	    total_cost: number;
	    start_date: string;
	    end_date: string;
	    metric: string;
	    page_ms: number;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new RenderReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rendered_text = source["rendered_text"];
	        this.total_cost = source["total_cost"];
	        this.start_date = source["start_date"];
	        this.end_date = source["end_date"];
	        this.metric = source["metric"];
	        this.page_ms = source["page_ms"];
	        this.error = source["error"];
	    }
	}
	export class Session {
	    username: string;
	    features: config.FeaturesConfig;
	    currency: string;
	    version: string;
	    auth: string;
	    role: string;
	    permissions: string[];
	
	    static createFrom(source: any = {}) {
	        return new Session(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.username = source["username"];
	        this.features = this.convertValues(source["features"], config.FeaturesConfig);
	        this.currency = source["currency"];
	        this.version = source["version"];
	        this.auth = source["auth"];
	        this.role = source["role"];
	        this.permissions = source["permissions"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace config {
	
	export class BudgetScope {
	    provider?: string;
	    account?: string;
	    service?: string;
	    tag?: string;
	
	    static createFrom(source: any = {}) {
	        return new BudgetScope(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.account = source["account"];
	        this.service = source["service"];
	        this.tag = source["tag"];
	    }
	}
	export class Budget {
	    name: string;
	    amount: number;
	    period: string;
	    scope: BudgetScope;
	
	    static createFrom(source: any = {}) {
	        return new Budget(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.amount = source["amount"];
	        this.period = source["period"];
	        this.scope = this.convertValues(source["scope"], BudgetScope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class FeaturesConfig {
	    real_time_updates: boolean;
	    interactive_charts: boolean;
	    export_reports: boolean;
	    notifications: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FeaturesConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.real_time_updates = source["real_time_updates"];
	        this.interactive_charts = source["interactive_charts"];
	        this.export_reports = source["export_reports"];
	        this.notifications = source["notifications"];
	    }
	}
	export class Schedule {
	    name: string;
	    frequency: string;
	    weekday?: string;
	    day?: number;
	    hour: number;
	    type: string;
	    format: string;
	    period: string;
	    recipients: string[];
	    webhook: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Schedule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.frequency = source["frequency"];
	        this.weekday = source["weekday"];
	        this.day = source["day"];
	        this.hour = source["hour"];
	        this.type = source["type"];
	        this.format = source["format"];
	        this.period = source["period"];
	        this.recipients = source["recipients"];
	        this.webhook = source["webhook"];
	    }
	}

}

export namespace model {
	
	export class Alert {
	    id: string;
	    kind: string;
	    severity: string;
	    provider?: string;
	    message: string;
	    time: string;
	    details?: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Alert(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.severity = source["severity"];
	        this.provider = source["provider"];
	        this.message = source["message"];
	        this.time = source["time"];
	        this.details = source["details"];
	    }
	}
	export class AllocatedCosts {
	    by_department: Record<string, number>;
	    by_project: Record<string, number>;
	    unallocated: number;
	    shared: number;
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new AllocatedCosts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.by_department = source["by_department"];
	        this.by_project = source["by_project"];
	        this.unallocated = source["unallocated"];
	        this.shared = source["shared"];
	        this.total = source["total"];
	    }
	}
	export class AnalysisPeriod {
	    start_date: string;
	    end_date: string;
	
	    static createFrom(source: any = {}) {
	        return new AnalysisPeriod(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.start_date = source["start_date"];
	        this.end_date = source["end_date"];
	    }
	}
	export class AllocationRules {
	    method: string;
	    tags: string[];
	    departments: string[];
	    projects: string[];
	    accounts?: Record<string, string>;
	    patterns?: Record<string, string>;
	    shared_split?: string;
	    shared_percentages?: Record<string, number>;
	    start?: string;
	    end?: string;
	
	    static createFrom(source: any = {}) {
	        return new AllocationRules(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.method = source["method"];
	        this.tags = source["tags"];
	        this.departments = source["departments"];
	        this.projects = source["projects"];
	        this.accounts = source["accounts"];
	        this.patterns = source["patterns"];
	        this.shared_split = source["shared_split"];
	        this.shared_percentages = source["shared_percentages"];
	        this.start = source["start"];
	        this.end = source["end"];
	    }
	}
	export class AllocationResult {
	    allocated_costs: AllocatedCosts;
	    rules: AllocationRules;
	    matched_rules?: Record<string, number>;
	    period: AnalysisPeriod;
	    currency: string;
	
	    static createFrom(source: any = {}) {
	        return new AllocationResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.allocated_costs = this.convertValues(source["allocated_costs"], AllocatedCosts);
	        this.rules = this.convertValues(source["rules"], AllocationRules);
	        this.matched_rules = source["matched_rules"];
	        this.period = this.convertValues(source["period"], AnalysisPeriod);
	        this.currency = source["currency"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Basis {
	    from: string;
	    to: string;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new Basis(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.reason = source["reason"];
	    }
	}
	export class BudgetForecast {
	    name: string;
	    amount: number;
	    period: string;
	    period_end: string;
	    actual: number;
	    projected: number;
	    has_forecast: boolean;
	    currency: string;
	
	    static createFrom(source: any = {}) {
	        return new BudgetForecast(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.amount = source["amount"];
	        this.period = source["period"];
	        this.period_end = source["period_end"];
	        this.actual = source["actual"];
	        this.projected = source["projected"];
	        this.has_forecast = source["has_forecast"];
	        this.currency = source["currency"];
	    }
	}
	export class ExpiringCommitment {
	    provider: string;
	    id: string;
	    type: string;
	    end: string;
	    days_left: number;
	    expiring_within_30: boolean;
	    daily_commitment: number;
	
	    static createFrom(source: any = {}) {
	        return new ExpiringCommitment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.id = source["id"];
	        this.type = source["type"];
	        this.end = source["end"];
	        this.days_left = source["days_left"];
	        this.expiring_within_30 = source["expiring_within_30"];
	        this.daily_commitment = source["daily_commitment"];
	    }
	}
	export class CommitmentSummary {
	    provider: string;
	    source: string;
	    type: string;
	    reported: boolean;
	    note?: string;
	    eligible_on_demand_cost: number;
	    covered_on_demand_cost: number;
	    coverage?: number;
	    purchased_cost: number;
	    used_cost: number;
	    unused_cost: number;
	    utilization?: number;
	    utilization_basis?: string;
	    net_savings: number;
	    effective_savings_rate?: number;
	    coverage_unknown: boolean;
	    commitments: number;
	    expiry_unknown: number;
	
	    static createFrom(source: any = {}) {
	        return new CommitmentSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.source = source["source"];
	        this.type = source["type"];
	        this.reported = source["reported"];
	        this.note = source["note"];
	        this.eligible_on_demand_cost = source["eligible_on_demand_cost"];
	        this.covered_on_demand_cost = source["covered_on_demand_cost"];
	        this.coverage = source["coverage"];
	        this.purchased_cost = source["purchased_cost"];
	        this.used_cost = source["used_cost"];
	        this.unused_cost = source["unused_cost"];
	        this.utilization = source["utilization"];
	        this.utilization_basis = source["utilization_basis"];
	        this.net_savings = source["net_savings"];
	        this.effective_savings_rate = source["effective_savings_rate"];
	        this.coverage_unknown = source["coverage_unknown"];
	        this.commitments = source["commitments"];
	        this.expiry_unknown = source["expiry_unknown"];
	    }
	}
	export class CommitmentReport {
	    period: AnalysisPeriod;
	    currency: string;
	    providers: CommitmentSummary[];
	    expiring: ExpiringCommitment[];
	    basis?: Basis;
	
	    static createFrom(source: any = {}) {
	        return new CommitmentReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.period = this.convertValues(source["period"], AnalysisPeriod);
	        this.currency = source["currency"];
	        this.providers = this.convertValues(source["providers"], CommitmentSummary);
	        this.expiring = this.convertValues(source["expiring"], ExpiringCommitment);
	        this.basis = this.convertValues(source["basis"], Basis);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Comparison {
	    start: string;
	    end: string;
	    days: number;
	    total_cost: number;
	    providers: Record<string, number>;
	
	    static createFrom(source: any = {}) {
	        return new Comparison(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.start = source["start"];
	        this.end = source["end"];
	        this.days = source["days"];
	        this.total_cost = source["total_cost"];
	        this.providers = source["providers"];
	    }
	}
	export class CostGroup {
	    key: string;
	    label: string;
	    cost: number;
	    previous_cost: number;
	    other?: number;
	    series?: DailyPoint[];
	
	    static createFrom(source: any = {}) {
	        return new CostGroup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.label = source["label"];
	        this.cost = source["cost"];
	        this.previous_cost = source["previous_cost"];
	        this.other = source["other"];
	        this.series = this.convertValues(source["series"], DailyPoint);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DailyPoint {
	    date: string;
	    cost: number;
	
	    static createFrom(source: any = {}) {
	        return new DailyPoint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.cost = source["cost"];
	    }
	}
	export class PeriodInfo {
	    kind: string;
	    days?: number;
	    granularity: string;
	    label: string;
	    start: string;
	    end: string;
	    cut: boolean;
	    requested_end?: string;
	
	    static createFrom(source: any = {}) {
	        return new PeriodInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.days = source["days"];
	        this.granularity = source["granularity"];
	        this.label = source["label"];
	        this.start = source["start"];
	        this.end = source["end"];
	        this.cut = source["cut"];
	        this.requested_end = source["requested_end"];
	    }
	}
	export class Notice {
	    kind: string;
	    providers: string[];
	    day?: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new Notice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.providers = source["providers"];
	        this.day = source["day"];
	        this.message = source["message"];
	    }
	}
	export class CostSummary {
	    total_cost: number;
	    providers_analyzed: string[];
	    analysis_period: AnalysisPeriod;
	    currency: string;
	    metric: string;
	    rates_used?: Record<string, number>;
	    notices?: Notice[];
	    period?: PeriodInfo;
	    previous?: Comparison;
	    series?: DailyPoint[];
	    group_by?: string;
	    groups?: CostGroup[];
	
	    static createFrom(source: any = {}) {
	        return new CostSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total_cost = source["total_cost"];
	        this.providers_analyzed = source["providers_analyzed"];
	        this.analysis_period = this.convertValues(source["analysis_period"], AnalysisPeriod);
	        this.currency = source["currency"];
	        this.metric = source["metric"];
	        this.rates_used = source["rates_used"];
	        this.notices = this.convertValues(source["notices"], Notice);
	        this.period = this.convertValues(source["period"], PeriodInfo);
	        this.previous = this.convertValues(source["previous"], Comparison);
	        this.series = this.convertValues(source["series"], DailyPoint);
	        this.group_by = source["group_by"];
	        this.groups = this.convertValues(source["groups"], CostGroup);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CostAnalysis {
	    summary: CostSummary;
	
	    static createFrom(source: any = {}) {
	        return new CostAnalysis(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.summary = this.convertValues(source["summary"], CostSummary);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class CoverageMonth {
	    month: string;
	    from: string;
	    to: string;
	    total_cost: number;
	    allocatable_cost: number;
	    unallocated_cost: number;
	    allocatable_share: number;
	
	    static createFrom(source: any = {}) {
	        return new CoverageMonth(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.month = source["month"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.total_cost = source["total_cost"];
	        this.allocatable_cost = source["allocatable_cost"];
	        this.unallocated_cost = source["unallocated_cost"];
	        this.allocatable_share = source["allocatable_share"];
	    }
	}
	export class CoverageRow {
	    provider: string;
	    account?: string;
	    total_cost: number;
	    allocatable_cost: number;
	    unallocated_cost: number;
	    allocatable_share: number;
	    untagged_resources: number;
	
	    static createFrom(source: any = {}) {
	        return new CoverageRow(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.account = source["account"];
	        this.total_cost = source["total_cost"];
	        this.allocatable_cost = source["allocatable_cost"];
	        this.unallocated_cost = source["unallocated_cost"];
	        this.allocatable_share = source["allocatable_share"];
	        this.untagged_resources = source["untagged_resources"];
	    }
	}
	export class CredentialField {
	    provider: string;
	    name: string;
	    label: string;
	    help?: string;
	    secret: boolean;
	    multiline: boolean;
	    optional: boolean;
	    set: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CredentialField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.name = source["name"];
	        this.label = source["label"];
	        this.help = source["help"];
	        this.secret = source["secret"];
	        this.multiline = source["multiline"];
	        this.optional = source["optional"];
	        this.set = source["set"];
	    }
	}
	export class CredentialStoreStatus {
	    backend: string;
	    locked: boolean;
	    has_items: boolean;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new CredentialStoreStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.backend = source["backend"];
	        this.locked = source["locked"];
	        this.has_items = source["has_items"];
	        this.message = source["message"];
	    }
	}
	
	
	export class MonthEndForecast {
	    month: string;
	    month_to_date: number;
	    remaining_days: number;
	    remaining_forecast: number;
	    total: number;
	    lower: number;
	    upper: number;
	    confidence_level: number;
	
	    static createFrom(source: any = {}) {
	        return new MonthEndForecast(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.month = source["month"];
	        this.month_to_date = source["month_to_date"];
	        this.remaining_days = source["remaining_days"];
	        this.remaining_forecast = source["remaining_forecast"];
	        this.total = source["total"];
	        this.lower = source["lower"];
	        this.upper = source["upper"];
	        this.confidence_level = source["confidence_level"];
	    }
	}
	export class ForecastAccuracy {
	    mape: number;
	    coverage_80: number;
	    coverage_95: number;
	    origins: number;
	    horizon: number;
	
	    static createFrom(source: any = {}) {
	        return new ForecastAccuracy(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mape = source["mape"];
	        this.coverage_80 = source["coverage_80"];
	        this.coverage_95 = source["coverage_95"];
	        this.origins = source["origins"];
	        this.horizon = source["horizon"];
	    }
	}
	export class ForecastPoint {
	    date: string;
	    forecast: number;
	    lower: number;
	    upper: number;
	
	    static createFrom(source: any = {}) {
	        return new ForecastPoint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.forecast = source["forecast"];
	        this.lower = source["lower"];
	        this.upper = source["upper"];
	    }
	}
	export class RecommendationsImpact {
	    base_forecast: number;
	    optimized_forecast: number;
	    total_savings: number;
	    savings_percentage: number;
	
	    static createFrom(source: any = {}) {
	        return new RecommendationsImpact(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.base_forecast = source["base_forecast"];
	        this.optimized_forecast = source["optimized_forecast"];
	        this.total_savings = source["total_savings"];
	        this.savings_percentage = source["savings_percentage"];
	    }
	}
	export class TrendAnalysis {
	    trend_direction: string;
	    volatility: number;
	    slope_per_day: number;
	    p_value: number;
	
	    static createFrom(source: any = {}) {
	        return new TrendAnalysis(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.trend_direction = source["trend_direction"];
	        this.volatility = source["volatility"];
	        this.slope_per_day = source["slope_per_day"];
	        this.p_value = source["p_value"];
	    }
	}
	export class ProviderForecast {
	    total_forecast: number;
	    confidence_interval: number[];
	    trend_analysis: TrendAnalysis;
	
	    static createFrom(source: any = {}) {
	        return new ProviderForecast(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total_forecast = source["total_forecast"];
	        this.confidence_interval = source["confidence_interval"];
	        this.trend_analysis = this.convertValues(source["trend_analysis"], TrendAnalysis);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Forecast {
	    total_forecast: number;
	    confidence_interval: number[];
	    confidence_level: number;
	    forecast_period: number;
	    provider_forecasts: Record<string, ProviderForecast>;
	    recommendations_impact?: RecommendationsImpact;
	    daily_forecast: ForecastPoint[];
	    currency: string;
	    model?: string;
	    accuracy?: ForecastAccuracy;
	    month_end?: MonthEndForecast;
	    budgets: BudgetForecast[];
	
	    static createFrom(source: any = {}) {
	        return new Forecast(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total_forecast = source["total_forecast"];
	        this.confidence_interval = source["confidence_interval"];
	        this.confidence_level = source["confidence_level"];
	        this.forecast_period = source["forecast_period"];
	        this.provider_forecasts = this.convertValues(source["provider_forecasts"], ProviderForecast, true);
	        this.recommendations_impact = this.convertValues(source["recommendations_impact"], RecommendationsImpact);
	        this.daily_forecast = this.convertValues(source["daily_forecast"], ForecastPoint);
	        this.currency = source["currency"];
	        this.model = source["model"];
	        this.accuracy = this.convertValues(source["accuracy"], ForecastAccuracy);
	        this.month_end = this.convertValues(source["month_end"], MonthEndForecast);
	        this.budgets = this.convertValues(source["budgets"], BudgetForecast);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class HealthCheck {
	    name: string;
	    status: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new HealthCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.status = source["status"];
	        this.message = source["message"];
	    }
	}
	export class Health {
	    status: string;
	    checks: HealthCheck[];
	
	    static createFrom(source: any = {}) {
	        return new Health(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.checks = this.convertValues(source["checks"], HealthCheck);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class InstanceConfig {
	    instance_type: string;
	    cost: number;
	
	    static createFrom(source: any = {}) {
	        return new InstanceConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.instance_type = source["instance_type"];
	        this.cost = source["cost"];
	    }
	}
	export class RealizedSavings {
	    done_on: string;
	    days_before: number;
	    days_after: number;
	    daily_before: number;
	    daily_after: number;
	    monthly: number;
	    currency: string;
	
	    static createFrom(source: any = {}) {
	        return new RealizedSavings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.done_on = source["done_on"];
	        this.days_before = source["days_before"];
	        this.days_after = source["days_after"];
	        this.daily_before = source["daily_before"];
	        this.daily_after = source["daily_after"];
	        this.monthly = source["monthly"];
	        this.currency = source["currency"];
	    }
	}
	export class Lifecycle {
	    state: string;
	    reason?: string;
	    until?: string;
	    by?: string;
	    at?: string;
	    current: boolean;
	    realized?: RealizedSavings;
	
	    static createFrom(source: any = {}) {
	        return new Lifecycle(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.reason = source["reason"];
	        this.until = source["until"];
	        this.by = source["by"];
	        this.at = source["at"];
	        this.current = source["current"];
	        this.realized = this.convertValues(source["realized"], RealizedSavings);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class NotAssessed {
	    provider: string;
	    resources: number;
	    monthly_cost: number;
	    currency: string;
	    reason: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new NotAssessed(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.resources = source["resources"];
	        this.monthly_cost = source["monthly_cost"];
	        this.currency = source["currency"];
	        this.reason = source["reason"];
	        this.message = source["message"];
	    }
	}
	
	export class Recommendation {
	    id?: string;
	    type: string;
	    resource_id?: string;
	    resource_type?: string;
	    description: string;
	    current_config?: InstanceConfig;
	    recommended_config?: InstanceConfig;
	    potential_savings: number;
	    priority: string;
	    provider: string;
	    confidence: number;
	    implementation_effort: string;
	    details?: Record<string, any>;
	    source: string;
	    basis?: Basis;
	    lifecycle?: Lifecycle;
	
	    static createFrom(source: any = {}) {
	        return new Recommendation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.type = source["type"];
	        this.resource_id = source["resource_id"];
	        this.resource_type = source["resource_type"];
	        this.description = source["description"];
	        this.current_config = this.convertValues(source["current_config"], InstanceConfig);
	        this.recommended_config = this.convertValues(source["recommended_config"], InstanceConfig);
	        this.potential_savings = source["potential_savings"];
	        this.priority = source["priority"];
	        this.provider = source["provider"];
	        this.confidence = source["confidence"];
	        this.implementation_effort = source["implementation_effort"];
	        this.details = source["details"];
	        this.source = source["source"];
	        this.basis = this.convertValues(source["basis"], Basis);
	        this.lifecycle = this.convertValues(source["lifecycle"], Lifecycle);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OptimizationSummary {
	    total_recommendations: number;
	    total_potential_savings: number;
	    providers_analyzed: string[];
	
	    static createFrom(source: any = {}) {
	        return new OptimizationSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total_recommendations = source["total_recommendations"];
	        this.total_potential_savings = source["total_potential_savings"];
	        this.providers_analyzed = source["providers_analyzed"];
	    }
	}
	export class OptimizationResult {
	    summary: OptimizationSummary;
	    recommendations: Recommendation[];
	    report_path: string;
	    run_id?: number;
	    not_assessed: NotAssessed[];
	
	    static createFrom(source: any = {}) {
	        return new OptimizationResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.summary = this.convertValues(source["summary"], OptimizationSummary);
	        this.recommendations = this.convertValues(source["recommendations"], Recommendation);
	        this.report_path = source["report_path"];
	        this.run_id = source["run_id"];
	        this.not_assessed = this.convertValues(source["not_assessed"], NotAssessed);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class OwnerCost {
	    key: string;
	    value: string;
	    cost: number;
	
	    static createFrom(source: any = {}) {
	        return new OwnerCost(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	        this.cost = source["cost"];
	    }
	}
	export class PerformanceMetrics {
	    cache_hit_rate: number;
	    total_requests: number;
	    average_response_time: number;
	    error_rate: number;
	    memory_usage: number;
	    cpu_usage: number;
	
	    static createFrom(source: any = {}) {
	        return new PerformanceMetrics(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.cache_hit_rate = source["cache_hit_rate"];
	        this.total_requests = source["total_requests"];
	        this.average_response_time = source["average_response_time"];
	        this.error_rate = source["error_rate"];
	        this.memory_usage = source["memory_usage"];
	        this.cpu_usage = source["cpu_usage"];
	    }
	}
	
	export class ResourceCost {
	    resource_id: string;
	    resource_type: string;
	    service: string;
	    region: string;
	    cost: number;
	    tags: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new ResourceCost(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resource_id = source["resource_id"];
	        this.resource_type = source["resource_type"];
	        this.service = source["service"];
	        this.region = source["region"];
	        this.cost = source["cost"];
	        this.tags = source["tags"];
	    }
	}
	export class ProviderCosts {
	    total_cost: number;
	    service_breakdown: Record<string, number>;
	    resources: ResourceCost[];
	    daily_costs: DailyPoint[];
	    source: string;
	    resource_count: number;
	    series?: DailyPoint[];
	
	    static createFrom(source: any = {}) {
	        return new ProviderCosts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.total_cost = source["total_cost"];
	        this.service_breakdown = source["service_breakdown"];
	        this.resources = this.convertValues(source["resources"], ResourceCost);
	        this.daily_costs = this.convertValues(source["daily_costs"], DailyPoint);
	        this.source = source["source"];
	        this.resource_count = source["resource_count"];
	        this.series = this.convertValues(source["series"], DailyPoint);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderDetail {
	    provider: string;
	    enabled: boolean;
	    source: string;
	    connected: boolean;
	    error?: string;
	    last_sync?: string;
	    first_day?: string;
	    last_day?: string;
	    lines: number;
	
	    static createFrom(source: any = {}) {
	        return new ProviderDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.enabled = source["enabled"];
	        this.source = source["source"];
	        this.connected = source["connected"];
	        this.error = source["error"];
	        this.last_sync = source["last_sync"];
	        this.first_day = source["first_day"];
	        this.last_day = source["last_day"];
	        this.lines = source["lines"];
	    }
	}
	
	
	
	
	export class ReportRequest {
	    type: string;
	    format: string;
	    period?: string;
	    start?: string;
	    end?: string;
	    providers?: string[];
	    view?: string;
	
	    static createFrom(source: any = {}) {
	        return new ReportRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.format = source["format"];
	        this.period = source["period"];
	        this.start = source["start"];
	        this.end = source["end"];
	        this.providers = source["providers"];
	        this.view = source["view"];
	    }
	}
	export class ReportResult {
	    report_path: string;
	    attachments?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ReportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.report_path = source["report_path"];
	        this.attachments = source["attachments"];
	    }
	}
	
	export class RuleSet {
	    id: number;
	    name: string;
	    rules: AllocationRules;
	    created_at: string;
	    updated_at: string;
	
	    static createFrom(source: any = {}) {
	        return new RuleSet(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.rules = this.convertValues(source["rules"], AllocationRules);
	        this.created_at = source["created_at"];
	        this.updated_at = source["updated_at"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Run {
	    id: number;
	    kind: string;
	    started_at: string;
	    finished_at: string;
	    status: string;
	    summary: number[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new Run(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.started_at = source["started_at"];
	        this.finished_at = source["finished_at"];
	        this.status = source["status"];
	        this.summary = source["summary"];
	        this.error = source["error"];
	    }
	}
	export class ViewSpec {
	    period?: string;
	    days?: number;
	    start?: string;
	    end?: string;
	    granularity?: string;
	    metric?: string;
	    group_by?: string;
	    filters?: Record<string, Array<string>>;
	
	    static createFrom(source: any = {}) {
	        return new ViewSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.period = source["period"];
	        this.days = source["days"];
	        this.start = source["start"];
	        this.end = source["end"];
	        this.granularity = source["granularity"];
	        this.metric = source["metric"];
	        this.group_by = source["group_by"];
	        this.filters = source["filters"];
	    }
	}
	export class SavedView {
	    id: number;
	    name: string;
	    spec: ViewSpec;
	    created_by: string;
	    created_at: string;
	    updated_at: string;
	
	    static createFrom(source: any = {}) {
	        return new SavedView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.spec = this.convertValues(source["spec"], ViewSpec);
	        this.created_by = source["created_by"];
	        this.created_at = source["created_at"];
	        this.updated_at = source["updated_at"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TagSuggestion {
	    resource_id: string;
	    cost: number;
	    tags: Record<string, string>;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new TagSuggestion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resource_id = source["resource_id"];
	        this.cost = source["cost"];
	        this.tags = source["tags"];
	        this.reason = source["reason"];
	    }
	}
	export class TagWork {
	    provider: string;
	    account: string;
	    unallocated_cost: number;
	    suggested_cost: number;
	    untagged_resources: number;
	    suggestions: TagSuggestion[];
	
	    static createFrom(source: any = {}) {
	        return new TagWork(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.account = source["account"];
	        this.unallocated_cost = source["unallocated_cost"];
	        this.suggested_cost = source["suggested_cost"];
	        this.untagged_resources = source["untagged_resources"];
	        this.suggestions = this.convertValues(source["suggestions"], TagSuggestion);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TagCoverage {
	    from: string;
	    to: string;
	    currency: string;
	    owner_keys: string[];
	    total_cost: number;
	    allocatable_cost: number;
	    unallocated_cost: number;
	    allocatable_share: number;
	    providers: CoverageRow[];
	    accounts: CoverageRow[];
	    owners: OwnerCost[];
	    months: CoverageMonth[];
	    worklist: TagWork[];
	    accounts_total: number;
	    worklist_total: number;
	
	    static createFrom(source: any = {}) {
	        return new TagCoverage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.currency = source["currency"];
	        this.owner_keys = source["owner_keys"];
	        this.total_cost = source["total_cost"];
	        this.allocatable_cost = source["allocatable_cost"];
	        this.unallocated_cost = source["unallocated_cost"];
	        this.allocatable_share = source["allocatable_share"];
	        this.providers = this.convertValues(source["providers"], CoverageRow);
	        this.accounts = this.convertValues(source["accounts"], CoverageRow);
	        this.owners = this.convertValues(source["owners"], OwnerCost);
	        this.months = this.convertValues(source["months"], CoverageMonth);
	        this.worklist = this.convertValues(source["worklist"], TagWork);
	        this.accounts_total = source["accounts_total"];
	        this.worklist_total = source["worklist_total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	

}

export namespace monitor {
	
	export class BudgetStatus {
	    budget: config.Budget;
	    period: string;
	    period_start: string;
	    period_end: string;
	    actual: number;
	    projected: number;
	    has_forecast: boolean;
	    currency: string;
	    actual_threshold: number;
	    forecast_threshold: number;
	
	    static createFrom(source: any = {}) {
	        return new BudgetStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.budget = this.convertValues(source["budget"], config.Budget);
	        this.period = source["period"];
	        this.period_start = source["period_start"];
	        this.period_end = source["period_end"];
	        this.actual = source["actual"];
	        this.projected = source["projected"];
	        this.has_forecast = source["has_forecast"];
	        this.currency = source["currency"];
	        this.actual_threshold = source["actual_threshold"];
	        this.forecast_threshold = source["forecast_threshold"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Driver {
	    service: string;
	    actual: number;
	    expected: number;
	    excess: number;
	    share: number;
	
	    static createFrom(source: any = {}) {
	        return new Driver(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.service = source["service"];
	        this.actual = source["actual"];
	        this.expected = source["expected"];
	        this.excess = source["excess"];
	        this.share = source["share"];
	    }
	}

}

export namespace service {
	
	export class AnomalyDecision {
	    action: string;
	    reason: string;
	    pattern?: boolean;
	    service?: string;
	    by?: string;
	    at?: string;
	
	    static createFrom(source: any = {}) {
	        return new AnomalyDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.reason = source["reason"];
	        this.pattern = source["pattern"];
	        this.service = source["service"];
	        this.by = source["by"];
	        this.at = source["at"];
	    }
	}
	export class AnomalyDecisionRequest {
	    action: string;
	    reason: string;
	    pattern?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AnomalyDecisionRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.reason = source["reason"];
	        this.pattern = source["pattern"];
	    }
	}
	export class ResourceDriver {
	    resource_id: string;
	    actual: number;
	    expected: number;
	    excess: number;
	
	    static createFrom(source: any = {}) {
	        return new ResourceDriver(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resource_id = source["resource_id"];
	        this.actual = source["actual"];
	        this.expected = source["expected"];
	        this.excess = source["excess"];
	    }
	}
	export class AnomalyView {
	    id: string;
	    scope: string;
	    provider: string;
	    service?: string;
	    day: string;
	    actual: number;
	    expected: number;
	    upper: number;
	    score: number;
	    drivers: monitor.Driver[];
	    decision?: AnomalyDecision;
	    suppressed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AnomalyView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.scope = source["scope"];
	        this.provider = source["provider"];
	        this.service = source["service"];
	        this.day = source["day"];
	        this.actual = source["actual"];
	        this.expected = source["expected"];
	        this.upper = source["upper"];
	        this.score = source["score"];
	        this.drivers = this.convertValues(source["drivers"], monitor.Driver);
	        this.decision = this.convertValues(source["decision"], AnomalyDecision);
	        this.suppressed = source["suppressed"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AnomalyDetail {
	    anomaly: AnomalyView;
	    currency: string;
	    resources: ResourceDriver[];
	
	    static createFrom(source: any = {}) {
	        return new AnomalyDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.anomaly = this.convertValues(source["anomaly"], AnomalyView);
	        this.currency = source["currency"];
	        this.resources = this.convertValues(source["resources"], ResourceDriver);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AnomalyList {
	    currency: string;
	    from: string;
	    to: string;
	    anomalies: AnomalyView[];
	    series: Record<string, Array<model.DailyPoint>>;
	
	    static createFrom(source: any = {}) {
	        return new AnomalyList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.currency = source["currency"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.anomalies = this.convertValues(source["anomalies"], AnomalyView);
	        this.series = this.convertValues(source["series"], Array<model.DailyPoint>, true);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class BudgetView {
	    id: number;
	    source: string;
	    changed_by?: string;
	    changed_at?: string;
	    status: monitor.BudgetStatus;
	    measured: boolean;
	
	    static createFrom(source: any = {}) {
	        return new BudgetView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.source = source["source"];
	        this.changed_by = source["changed_by"];
	        this.changed_at = source["changed_at"];
	        this.status = this.convertValues(source["status"], monitor.BudgetStatus);
	        this.measured = source["measured"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CommitmentRequest {
	    period?: string;
	    days?: number;
	    start?: string;
	    end?: string;
	
	    static createFrom(source: any = {}) {
	        return new CommitmentRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.period = source["period"];
	        this.days = source["days"];
	        this.start = source["start"];
	        this.end = source["end"];
	    }
	}
	export class DeliveryView {
	    due_at: string;
	    channel: string;
	    state: string;
	    attempts: number;
	    finished_at?: string;
	    next_retry?: string;
	    to?: string;
	    report?: string;
	    period?: string;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new DeliveryView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.due_at = source["due_at"];
	        this.channel = source["channel"];
	        this.state = source["state"];
	        this.attempts = source["attempts"];
	        this.finished_at = source["finished_at"];
	        this.next_retry = source["next_retry"];
	        this.to = source["to"];
	        this.report = source["report"];
	        this.period = source["period"];
	        this.error = source["error"];
	    }
	}
	export class ImportTotals {
	    currency: string;
	    billed: number;
	    effective: number;
	    list: number;
	    billed_exact: string;
	    effective_exact: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportTotals(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.currency = source["currency"];
	        this.billed = source["billed"];
	        this.effective = source["effective"];
	        this.list = source["list"];
	        this.billed_exact = source["billed_exact"];
	        this.effective_exact = source["effective_exact"];
	    }
	}
	export class ImportSpan {
	    provider: string;
	    kind: string;
	    from: string;
	    to: string;
	    accounts: string[];
	    before: ImportTotals[];
	    after: ImportTotals[];
	
	    static createFrom(source: any = {}) {
	        return new ImportSpan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.kind = source["kind"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.accounts = source["accounts"];
	        this.before = this.convertValues(source["before"], ImportTotals);
	        this.after = this.convertValues(source["after"], ImportTotals);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportFile {
	    path: string;
	    format: string;
	    rows: number;
	    daily_lines: number;
	    from: string;
	    to: string;
	    providers: string[];
	    totals: Record<string, Array<ImportTotals>>;
	    warnings?: string[];
	    replaces: ImportSpan[];
	
	    static createFrom(source: any = {}) {
	        return new ImportFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.format = source["format"];
	        this.rows = source["rows"];
	        this.daily_lines = source["daily_lines"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.providers = source["providers"];
	        this.totals = this.convertValues(source["totals"], Array<ImportTotals>, true);
	        this.warnings = source["warnings"];
	        this.replaces = this.convertValues(source["replaces"], ImportSpan);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportResult {
	    dry_run: boolean;
	    files: ImportFile[];
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dry_run = source["dry_run"];
	        this.files = this.convertValues(source["files"], ImportFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class UtilizationDay {
	    date: string;
	    cpu: number;
	    memory: number;
	
	    static createFrom(source: any = {}) {
	        return new UtilizationDay(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.date = source["date"];
	        this.cpu = source["cpu"];
	        this.memory = source["memory"];
	    }
	}
	export class RecommendationDetail {
	    recommendation: model.Recommendation;
	    currency: string;
	    daily_cost: model.DailyPoint[];
	    utilization: UtilizationDay[];
	    console_url?: string;
	
	    static createFrom(source: any = {}) {
	        return new RecommendationDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.recommendation = this.convertValues(source["recommendation"], model.Recommendation);
	        this.currency = source["currency"];
	        this.daily_cost = this.convertValues(source["daily_cost"], model.DailyPoint);
	        this.utilization = this.convertValues(source["utilization"], UtilizationDay);
	        this.console_url = source["console_url"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RecommendationFilter {
	    type?: string;
	    provider?: string;
	    priority?: string;
	    state?: string;
	
	    static createFrom(source: any = {}) {
	        return new RecommendationFilter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.provider = source["provider"];
	        this.priority = source["priority"];
	        this.state = source["state"];
	    }
	}
	export class ReportFile {
	    name: string;
	    type: string;
	    format: string;
	    size: number;
	    created_at: string;
	
	    static createFrom(source: any = {}) {
	        return new ReportFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.type = source["type"];
	        this.format = source["format"];
	        this.size = source["size"];
	        this.created_at = source["created_at"];
	    }
	}
	
	export class ScheduleView {
	    id: number;
	    source: string;
	    schedule: config.Schedule;
	    changed_by?: string;
	    changed_at?: string;
	    next_due: string;
	    last_delivered?: DeliveryView;
	    last_error?: string;
	    next_retry?: string;
	    deliveries: DeliveryView[];
	
	    static createFrom(source: any = {}) {
	        return new ScheduleView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.source = source["source"];
	        this.schedule = this.convertValues(source["schedule"], config.Schedule);
	        this.changed_by = source["changed_by"];
	        this.changed_at = source["changed_at"];
	        this.next_due = source["next_due"];
	        this.last_delivered = this.convertValues(source["last_delivered"], DeliveryView);
	        this.last_error = source["last_error"];
	        this.next_retry = source["next_retry"];
	        this.deliveries = this.convertValues(source["deliveries"], DeliveryView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StateChange {
	    state: string;
	    reason?: string;
	    until?: string;
	
	    static createFrom(source: any = {}) {
	        return new StateChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.reason = source["reason"];
	        this.until = source["until"];
	    }
	}

}

