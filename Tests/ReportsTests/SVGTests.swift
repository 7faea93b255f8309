import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Reports
import Tables
import TableWriters
import Testing

@Suite("SVG plots: ticks, escaping, coordinates")
struct SVGTests {
    // MARK: Ticks

    @Test("Nice steps are 1, 2, 2.5 or 5 times a power of ten")
    func niceSteps() {
        #expect(Ticks.niceStep(range: 9.3, count: 5) == 2)
        #expect(Ticks.niceStep(range: 10, count: 5) == 2)
        #expect(Ticks.niceStep(range: 1, count: 4) == 0.25)
        #expect(Ticks.niceStep(range: 125, count: 5) == 25)
        #expect(Ticks.niceStep(range: 0.07, count: 5) == 0.02)
        #expect(Ticks.niceStep(range: 3600, count: 6) == 1000)
    }

    @Test("Linear ticks widen the domain to the outer ticks and label with just enough decimals")
    func linearTicks() {
        let ticks = Ticks.linear(0.3...9.3, count: 5)
        #expect(ticks.values == [0, 2, 4, 6, 8, 10])
        #expect(ticks.labels == ["0", "2", "4", "6", "8", "10"])
        #expect(ticks.domain == 0...10)
        let small = Ticks.linear(0.013...0.087, count: 4)
        #expect(small.labels == ["0", "0.02", "0.04", "0.06", "0.08", "0.1"])
        let quarter = Ticks.linear(0...1, count: 4)
        #expect(quarter.labels == ["0", "0.25", "0.5", "0.75", "1"])
        let negative = Ticks.linear(-20...20, count: 4)
        #expect(negative.labels.first == "−20")
        let kept = Ticks.linear(0.3...9.3, count: 5, expand: false)
        #expect(kept.values == [2, 4, 6, 8])
        #expect(kept.domain == 0.3...9.3)
        // A single value gets a domain around it; all zeros (no lost samples) 0…1.
        let flat = Ticks.linear(5...5)
        #expect(flat.domain.lowerBound < 5 && flat.domain.upperBound > 5)
        #expect(Ticks.linear(0...0).domain == 0...1)
        // Whole numbers only (trials, object ids).
        #expect(Ticks.linear(0...3, count: 6, integer: true).values == [0, 1, 2, 3])
    }

    @Test("Log ticks at decades, with 2 and 5 within two decades")
    func logTicks() {
        let wide = Ticks.log10(0.003...2000, count: 5)
        #expect(wide.values == [0.001, 0.01, 0.1, 1, 10, 100, 1000, 10000])
        #expect(wide.labels == ["0.001", "0.01", "0.1", "1", "10", "100", "1000", "10000"])
        let narrow = Ticks.log10(1.5...40, count: 5)
        #expect(narrow.values == [1, 2, 5, 10, 20, 50, 100])
        let huge = Ticks.log10(1e-9...1e9, count: 5)
        #expect(huge.values.count <= 8)
        #expect(huge.labels.contains("10⁻⁶"))
    }

    @Test("Date ticks at whole days, months or years")
    func dateTicks() {
        let day = 86_400.0
        let start = Double(CivilTime.days(year: 2024, month: 2, day: 27)) * day + 3600
        let days = Ticks.dates(start...(start + 5 * day), count: 6)
        #expect(days.labels == ["2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02", "2024-03-03"])
        let months = Ticks.dates(start...(start + 200 * day), count: 6)
        #expect(months.labels.first == "2024-03")
        #expect(months.labels.allSatisfy { $0.count == 7 })
        let years = Ticks.dates(start...(start + 3000 * day), count: 5)
        #expect(years.labels == ["2026", "2028", "2030", "2032"])
    }

    // MARK: Text

    @Test("Escaping: markup characters as entities, characters XML forbids replaced")
    func escaping() {
        #expect(Markup.escape("<a href=\"x\">Tom & 'Jerry'</a>") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(Markup.escape("a\u{1B}b\u{0}c\td") == "a\u{FFFD}b\u{FFFD}c\td")
        #expect(Markup.escape("µV² – ok") == "µV² – ok")
    }

    @Test("Numbers: fixed decimals, no trailing zeros, no negative zero, no exponent")
    func numbers() {
        #expect(Markup.number(1.25, decimals: 1) == "1.3")
        #expect(Markup.number(-0.04, decimals: 1) == "0")
        #expect(Markup.number(120, decimals: 1) == "120")
        #expect(Markup.number(0.5, decimals: 3) == "0.5")
        #expect(Markup.number(-3.05, decimals: 2) == "-3.05")
        #expect(Markup.number(1e-7, decimals: 9) == "0.0000001")
        #expect(Markup.value(0.000123456) == "0.0001235")
        #expect(Markup.value(2.5e-7) == "2.5×10⁻⁷")
        #expect(Markup.value(1e12) == "10¹²")
    }

    // MARK: Coordinates

    /// The plot area and domains a chart's `<svg>` declares.
    struct Frame {
        var area: [Double]
        var x: [Double], y: [Double]
        var yLog: Bool

        init(_ svg: String) throws {
            func attribute(_ name: String) throws -> [Double] {
                let range = try #require(svg.range(of: "\(name)=\""))
                let rest = svg[range.upperBound...]
                let value = rest[..<rest.firstIndex(of: "\"")!]
                return value.split(separator: " ").map { Double($0)! }
            }
            area = try attribute("data-area")
            x = try attribute("data-x-domain")
            y = try attribute("data-y-domain")
            yLog = svg.contains("data-y-scale=\"log\"")
        }

        /// Data values from pixels.
        func data(_ px: Double, _ py: Double) -> (Double, Double) {
            let tx = (px - area[0]) / area[2]
            let ty = (area[1] + area[3] - py) / area[3]
            let xv = x[0] + tx * (x[1] - x[0])
            let yv = yLog ? pow(10, log10(y[0]) + ty * (log10(y[1]) - log10(y[0]))) : y[0] + ty * (y[1] - y[0])
            return (xv, yv)
        }
    }

    static func polylinePoints(_ svg: String, label: String) throws -> [(Double, Double)] {
        let range = try #require(svg.range(of: "data-label=\"\(label)\""))
        let rest = svg[range.upperBound...]
        let start = try #require(rest.range(of: "points=\""))
        let tail = rest[start.upperBound...]
        return tail[..<tail.firstIndex(of: "\"")!].split(separator: " ").map {
            let pair = $0.split(separator: ",")
            return (Double(pair[0])!, Double(pair[1])!)
        }
    }

    @Test("A line's pixels map back to its data on linear and log axes (to 0.1 px)")
    func coordinates() throws {
        let xs = [0.0, 2.5, 5, 7.5, 10], ys = [1.0, 10, 100, 1000, 3]
        for scale in [AxisScale.linear, .log] {
            let chart = Chart(id: "c", cssClass: "t", title: "t", x: Axis("time", unit: "s"),
                              y: Axis("power", unit: "µV²", scale: scale),
                              layers: [.line(LineSeries("a", xs: xs, ys: ys, colour: "#000000"))])
            let svg = chart.svg()
            let frame = try Frame(svg)
            let points = try Self.polylinePoints(svg, label: "a")
            #expect(points.count == xs.count)
            for (index, point) in points.enumerated() {
                let (x, y) = frame.data(point.0, point.1)
                #expect(abs(x - xs[index]) <= 0.1 * (frame.x[1] - frame.x[0]) / frame.area[2] + 1e-9)
                let yTolerance = scale == .log ? ys[index] * 0.02 : 0.1 * (frame.y[1] - frame.y[0]) / frame.area[3] + 1e-9
                #expect(abs(y - ys[index]) <= yTolerance, "\(scale) \(y) vs \(ys[index])")
            }
        }
    }

    @Test("NaN breaks a line; values ≤ 0 are left off a log axis")
    func gaps() throws {
        let chart = Chart(id: "g", cssClass: "t", title: "t", x: Axis("x", unit: "s"),
                          y: Axis("y", unit: "µV²", scale: .log),
                          layers: [.line(LineSeries("a", xs: [0, 1, 2, 3, 4], ys: [1, 2, .nan, 0, 5], colour: "#000000"))])
        let svg = chart.svg()
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
    }

    @Test("The SVG is well-formed XML, titles escaped, every axis titled with its unit")
    func wellFormed() throws {
        let chart = Chart(id: "w", cssClass: "t", title: "<b>Tom & Jerry</b>", description: "a \"test\"",
                          x: .date("session"), y: Axis("score", unit: "1"),
                          layers: [.points(PointSeries("s", xs: [1.7e9, 1.71e9], ys: [0.2, 0.8], colour: "#000000",
                                                       titles: ["first <", "second &"])),
                                   .rects([ChartRect(x0: 1.7e9, x1: 1.705e9, fill: "#DDDDDD", title: "zone")], label: "zone"),
                                   .rules(RuleSeries("marker", xs: [1.702e9], colour: "#FF0000")),
                                   .texts([ChartText(x: 1.7e9, y: 0.5, "1 < 2")])],
                          colourBar: ColourBar(label: "share clear", unit: "1", domain: 0...1))
        let svg = chart.svg()
        #expect(svg.contains("&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"))
        #expect(!svg.contains("<b>"))
        #expect(svg.contains("score (1)"))
        #expect(svg.contains("share clear (1)"))
        #expect(!svg.contains("http"))
        #if canImport(FoundationXML)
        let document = try XMLDocument(xmlString: svg)
        #expect(document.rootElement()?.name == "svg")
        #endif
    }

    @Test("A page is well-formed XML with escaped text, no script and no external reference")
    func page() throws {
        let table = ReportTable(caption: "a & b", header: ["x", "n"], rows: [["<1>", "2"], ["3", "4"], ["5", "6"]],
                                numericColumns: [1], limit: 2, rowClasses: ["warning", nil, "error"])
        let page = ReportPage(title: "Report <1>", sections: [
            ReportSection(id: "one", heading: "One & only", blocks: [
                .paragraph("text <i>"), .note("note"), .table(table), .list(["a", "<b>"]), .code("x < y"),
                .facts([("k", "v&")]),
                .details(summary: "more", [.plot(Chart(id: "p", cssClass: "t", title: "t", x: Axis("x", unit: "s"),
                                                       y: Axis("y", unit: "µV")))]),
            ], subsections: [ReportSection(id: "sub", heading: "Sub")]),
        ])
        let html = HTMLDocument.render(page, generator: "BrainBatch test 0", lead: "lead")
        #expect(!html.contains("<script"))
        #expect(!html.contains("http"))
        #expect(html.contains("Report &lt;1&gt;"))
        #expect(html.contains("1 more rows"))
        #if canImport(FoundationXML)
        let document = try XMLDocument(xmlString: html)
        #expect(document.rootElement()?.name == "html")
        #endif
    }

    // MARK: Colour

    @Test("The colour scale runs from viridis' first to its last colour")
    func colourScale() {
        #expect(ColourScale.viridis.colour(at: 0) == "#440154")
        #expect(ColourScale.viridis.colour(at: 1) == "#FDE725")
        #expect(ColourScale.viridis.colour(at: 2) == "#FDE725")
        #expect(ColourScale.viridis.colour(of: 5, in: 0...10) == ColourScale.viridis.colour(at: 0.5))
    }

    // MARK: Sealing

    @Test("A sealed report is recognised; one changed byte makes it foreign")
    func seal() {
        let data = ReportFile.seal("<html></html>", tool: "bt-decode")
        #expect(ReportFile.sealingTool(of: data) == "bt-decode")
        var changed = data
        changed[3] = UInt8(ascii: "X")
        #expect(ReportFile.sealingTool(of: changed) == nil)
        #expect(ReportFile.sealingTool(of: Data("<html></html>\n".utf8)) == nil)
        #expect(ReportFile.seal("<html></html>", tool: "bt-decode") == data)
    }
}

@Suite("Plot data: thinning, runs, dates")
struct PlotDataTests {
    @Test("Long series are averaged in equal groups; NaN is skipped, and a group of NaN stays a break")
    func reduced() {
        let xs = (0..<10).map(Double.init)
        var ys = xs
        ys[4] = .nan
        ys[6] = .nan
        ys[7] = .nan
        let r = PlotData.reduced(xs: xs, ys: ys, limit: 5)
        #expect(r.xs == [0.5, 2.5, 4.5, 6.5, 8.5])
        #expect(r.ys[0] == 0.5 && r.ys[2] == 5 && r.ys[3].isNaN && r.ys[4] == 8.5)
        #expect(PlotData.reduced(xs: [1, 2], ys: [3, 4], limit: 5).ys == [3, 4])
    }

    @Test("Runs of equal values")
    func runs() {
        let runs = PlotData.runs(["a", "a", "b", "a"])
        #expect(runs.map(\.first) == [0, 2, 3])
        #expect(runs.map(\.last) == [1, 2, 3])
    }

    @Test("Wall-clock text as seconds since 1970, any offset ignored")
    func wallClock() {
        #expect(PlotData.wallClockSeconds("1970-01-02T00:00:30") == 86_430)
        #expect(PlotData.wallClockSeconds("2014-03-08T10:40:00-08:00") == CivilTime.seconds(year: 2014, month: 3, day: 8, hour: 10, minute: 40))
        #expect(PlotData.wallClockSeconds("NA") == nil)
        #expect(PlotData.wallClockSeconds(nil) == nil)
    }
}
