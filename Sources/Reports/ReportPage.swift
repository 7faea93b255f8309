import Tables

/// A table on a report page: text cells, numeric columns right-aligned; rows beyond `limit` folded into a
/// `<details>` element (open it to see them, no script needed).
public struct ReportTable: Sendable {
    public var caption: String?
    public var header: [String]
    public var rows: [[String]]
    /// Columns (by index) aligned right.
    public var numericColumns: Set<Int>
    /// At most this many rows open; the rest folded.
    public var limit: Int?
    /// A CSS class per row (`error`, `warning`), or `nil`.
    public var rowClasses: [String?]?
    /// An id (tests and links find the table by it).
    public var id: String?

    public init(caption: String? = nil, header: [String], rows: [[String]], numericColumns: Set<Int> = [],
                limit: Int? = nil, rowClasses: [String?]? = nil, id: String? = nil) {
        self.caption = caption
        self.header = header
        self.rows = rows
        self.numericColumns = numericColumns
        self.limit = limit
        self.rowClasses = rowClasses
        self.id = id
    }
}

/// One piece of a section.
public indirect enum ReportBlock: Sendable {
    case paragraph(String)
    /// A muted remark (why a plot is missing, what a colour means).
    case note(String)
    case plot(Chart)
    /// Plots side by side where the page is wide enough (small multiples).
    case plots([Chart])
    case table(ReportTable)
    case list([String])
    /// Preformatted text (command lines, JSON).
    case code(String)
    /// Folded content under a one-line summary.
    case details(summary: String, [ReportBlock])
    /// Key–value pairs.
    case facts([(String, String)])
    /// Blocks under a small heading (one plot and its notes).
    case group(String, [ReportBlock])
}

/// A titled part of a page, with an id for links.
public struct ReportSection: Sendable {
    public var id: String
    public var heading: String
    /// The entry in the page's contents; the heading's last path component when the heading is a path.
    public var navTitle: String
    public var blocks: [ReportBlock]
    public var subsections: [ReportSection]

    public init(id: String, heading: String, navTitle: String? = nil, blocks: [ReportBlock] = [],
                subsections: [ReportSection] = []) {
        self.id = id
        self.heading = heading
        self.navTitle = navTitle ?? heading.split(separator: "/").last.map(String.init) ?? heading
        self.blocks = blocks
        self.subsections = subsections
    }
}

/// What a format contributes to a run's report: a title and its sections (plots and summaries of its inputs).
/// The runner adds the run's own sections (inputs, anomalies, tables written, provenance) around them
/// (``RunReport``).
public struct ReportPage: Sendable {
    public var title: String
    public var sections: [ReportSection]

    public init(title: String, sections: [ReportSection]) {
        self.title = title
        self.sections = sections
    }
}

/// Turns a page into one self-contained HTML document: inline CSS and SVG, no script, no external resource, no
/// time of writing. The markup is also well-formed XML (every element closed, attributes quoted, no named
/// entities but XML's), so tests and other programs can parse it.
public enum HTMLDocument {
    /// The document for `page`; `generator` goes into `<meta name="generator">`.
    public static func render(_ page: ReportPage, generator: String, lead: String? = nil) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        out += "<meta name=\"generator\" content=\"\(Markup.escape(generator))\"/>\n"
        out += "<title>\(Markup.escape(page.title))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n"
        out += "<header>\n<h1>\(Markup.escape(page.title))</h1>\n"
        if let lead { out += "<p class=\"lead\">\(Markup.escape(lead))</p>\n" }
        out += "<nav aria-label=\"contents\"><ol>\n"
        for section in page.sections {
            out += "<li><a href=\"#\(Markup.escape(section.id))\">\(Markup.escape(section.navTitle))</a>"
            if !section.subsections.isEmpty {
                out += "<ol>"
                for sub in section.subsections {
                    out += "<li><a href=\"#\(Markup.escape(sub.id))\">\(Markup.escape(sub.navTitle))</a></li>"
                }
                out += "</ol>"
            }
            out += "</li>\n"
        }
        out += "</ol></nav>\n</header>\n<main>\n"
        for section in page.sections { out += render(section, level: 2) }
        out += "</main>\n<footer><p>Written by \(Markup.escape(generator)). Self-contained: no script, no external resources.</p></footer>\n"
        out += "</body>\n</html>\n"
        return out
    }

    static func render(_ section: ReportSection, level: Int) -> String {
        var out = "<section id=\"\(Markup.escape(section.id))\">\n"
        out += "<h\(level)>\(Markup.escape(section.heading))</h\(level)>\n"
        for block in section.blocks { out += render(block) }
        for sub in section.subsections { out += render(sub, level: min(6, level + 1)) }
        return out + "</section>\n"
    }

    static func render(_ block: ReportBlock) -> String {
        switch block {
        case .paragraph(let text): return "<p>\(Markup.escape(text))</p>\n"
        case .note(let text): return "<p class=\"note\">\(Markup.escape(text))</p>\n"
        case .plot(let chart): return "<figure class=\"chart\">\n\(chart.svg())</figure>\n"
        case .plots(let charts):
            return "<div class=\"multiples\">\n" + charts.map { "<figure class=\"chart\">\n\($0.svg())</figure>\n" }.joined()
                + "</div>\n"
        case .table(let table): return render(table)
        case .list(let items):
            return "<ul>\n" + items.map { "<li>\(Markup.escape($0))</li>\n" }.joined() + "</ul>\n"
        case .code(let text): return "<pre>\(Markup.escape(text))</pre>\n"
        case .details(let summary, let blocks):
            return "<details>\n<summary>\(Markup.escape(summary))</summary>\n" + blocks.map(render).joined() + "</details>\n"
        case .group(let heading, let blocks):
            return "<div class=\"group\">\n<h4>\(Markup.escape(heading))</h4>\n" + blocks.map(render).joined() + "</div>\n"
        case .facts(let pairs):
            return "<dl class=\"facts\">\n" + pairs.map { "<dt>\(Markup.escape($0.0))</dt><dd>\(Markup.escape($0.1))</dd>\n" }
                .joined() + "</dl>\n"
        }
    }

    static func render(_ table: ReportTable) -> String {
        func row(_ cells: [String], _ index: Int) -> String {
            let cls = table.rowClasses?[index].map { " class=\"\(Markup.escape($0))\"" } ?? ""
            return "<tr\(cls)>" + cells.enumerated().map { column, cell in
                table.numericColumns.contains(column) ? "<td class=\"num\">\(Markup.escape(cell))</td>"
                                                      : "<td>\(Markup.escape(cell))</td>"
            }.joined() + "</tr>\n"
        }
        func head() -> String {
            "<thead><tr>" + table.header.enumerated().map { column, name in
                table.numericColumns.contains(column) ? "<th class=\"num\">\(Markup.escape(name))</th>"
                                                      : "<th>\(Markup.escape(name))</th>"
            }.joined() + "</tr></thead>\n"
        }
        let id = table.id.map { " id=\"\(Markup.escape($0))\"" } ?? ""
        let shown = min(table.rows.count, table.limit ?? table.rows.count)
        var out = "<table class=\"data\"\(id)>\n"
        if let caption = table.caption { out += "<caption>\(Markup.escape(caption))</caption>\n" }
        out += head() + "<tbody>\n"
        for index in 0..<shown { out += row(table.rows[index], index) }
        out += "</tbody>\n</table>\n"
        if shown < table.rows.count {
            out += "<details>\n<summary>\(table.rows.count - shown) more rows</summary>\n<table class=\"data\">\n" + head()
            out += "<tbody>\n"
            for index in shown..<table.rows.count { out += row(table.rows[index], index) }
            out += "</tbody>\n</table>\n</details>\n"
        }
        return out
    }

    /// The page's style sheet: system fonts, readable sizes, tables and figures that fit a laptop screen.
    static let style = """
    body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0 auto; \
    max-width: 1200px; padding: 0 16px 32px; color: #222; background: #fff; line-height: 1.4; }
    h1 { font-size: 1.5em; margin: 16px 0 4px; }
    h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 28px; }
    h3 { font-size: 1.1em; margin-top: 20px; }
    h4 { font-size: 1em; }
    p.lead { color: #444; margin-top: 0; }
    p.note { color: #555; font-size: 0.9em; }
    nav ol { columns: 2; font-size: 0.9em; }
    table.data { border-collapse: collapse; font-size: 0.85em; margin: 8px 0; }
    table.data caption { text-align: left; font-weight: 600; padding: 4px 0; }
    table.data th, table.data td { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
    table.data th { background: #f3f3f3; }
    td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.error td { background: #fde2dc; }
    tr.warning td { background: #fff3d6; }
    figure.chart { margin: 8px 0; overflow-x: auto; }
    div.multiples { display: flex; flex-wrap: wrap; gap: 8px; }
    div.multiples figure.chart { margin: 0; }
    svg.plot { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; max-width: 100%; \
    height: auto; }
    svg.plot .chart-title { font-size: 13px; font-weight: 600; fill: #222; }
    svg.plot .tick-label, svg.plot .legend-label { font-size: 11px; fill: #333; }
    svg.plot .axis-title { font-size: 12px; fill: #222; }
    svg.plot .grid { stroke: #e6e6e6; stroke-width: 1; }
    svg.plot .tick { stroke: #555; stroke-width: 1; }
    pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 0.85em; white-space: pre-wrap; \
    word-break: break-all; }
    dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 0.9em; }
    dl.facts dt { font-weight: 600; }
    dl.facts dd { margin: 0; }
    details summary { cursor: pointer; color: #0050a0; }
    footer { margin-top: 32px; color: #666; font-size: 0.85em; border-top: 1px solid #ddd; }

    """
}
