import Foundation

/// A line through data points; NaN values break it.
public struct LineSeries: Sendable {
    public var label: String?
    public var xs: [Double]
    public var ys: [Double]
    public var colour: String
    public var width: Double
    public var dashed: Bool
    /// Whether the label goes into the legend (it always goes into `data-label`).
    public var inLegend: Bool

    public init(_ label: String?, xs: [Double], ys: [Double], colour: String, width: Double = 1.5,
                dashed: Bool = false, inLegend: Bool = true) {
        precondition(xs.count == ys.count, "line \(label ?? ""): \(xs.count) x values, \(ys.count) y values")
        self.inLegend = inLegend
        self.label = label
        self.xs = xs
        self.ys = ys
        self.colour = colour
        self.width = width
        self.dashed = dashed
    }
}

/// Markers at data points, each with an optional tooltip.
public struct PointSeries: Sendable {
    public enum Shape: String, Sendable { case circle, square, diamond, cross }

    public var label: String?
    public var xs: [Double]
    public var ys: [Double]
    public var colour: String
    public var radius: Double
    public var shape: Shape
    public var hollow: Bool
    /// One tooltip per point (an SVG `<title>`, shown on hover without any script), or `nil`.
    public var titles: [String]?
    /// Whether the label goes into the legend (it always goes into `data-label`).
    public var inLegend: Bool

    public init(_ label: String?, xs: [Double], ys: [Double], colour: String, radius: Double = 3,
                shape: Shape = .circle, hollow: Bool = false, titles: [String]? = nil, inLegend: Bool = true) {
        precondition(xs.count == ys.count && (titles?.count ?? xs.count) == xs.count,
                     "points \(label ?? ""): x, y and titles differ in number")
        self.inLegend = inLegend
        self.label = label
        self.xs = xs
        self.ys = ys
        self.colour = colour
        self.radius = radius
        self.shape = shape
        self.hollow = hollow
        self.titles = titles
    }
}

/// Bars from `base` (or each bar's own base, for stacking) to `ys`, each from `xs` to `xs + widths`.
public struct BarSeries: Sendable {
    public var label: String?
    public var xs: [Double]
    public var widths: [Double]
    public var ys: [Double]
    public var base: Double
    /// Each bar's base (a stacked series starts where the one below ends), or `nil` for `base`.
    public var bases: [Double]?
    public var colour: String
    public var titles: [String]?

    public init(_ label: String?, xs: [Double], widths: [Double], ys: [Double], base: Double = 0,
                bases: [Double]? = nil, colour: String, titles: [String]? = nil) {
        precondition(xs.count == ys.count && widths.count == xs.count && (titles?.count ?? xs.count) == xs.count
                     && (bases?.count ?? xs.count) == xs.count,
                     "bars \(label ?? ""): x, width, y, bases and titles differ in number")
        self.label = label
        self.xs = xs
        self.widths = widths
        self.ys = ys
        self.base = base
        self.bases = bases
        self.colour = colour
        self.titles = titles
    }
}

/// A rectangle in data coordinates; a `nil` edge is the plot area's edge (a band shaded over the full height).
public struct ChartRect: Sendable {
    public var x0: Double?, x1: Double?, y0: Double?, y1: Double?
    public var fill: String
    public var opacity: Double
    public var title: String?

    public init(x0: Double?, x1: Double?, y0: Double? = nil, y1: Double? = nil, fill: String, opacity: Double = 1,
                title: String? = nil) {
        self.x0 = x0
        self.x1 = x1
        self.y0 = y0
        self.y1 = y1
        self.fill = fill
        self.opacity = opacity
        self.title = title
    }
}

/// Vertical lines at `xs` across the plot (events, markers).
public struct RuleSeries: Sendable {
    public var label: String?
    public var xs: [Double]
    public var colour: String
    public var width: Double
    public var dashed: Bool
    public var titles: [String]?

    public init(_ label: String?, xs: [Double], colour: String, width: Double = 1, dashed: Bool = false,
                titles: [String]? = nil) {
        precondition((titles?.count ?? xs.count) == xs.count, "rules \(label ?? ""): titles differ in number")
        self.label = label
        self.xs = xs
        self.colour = colour
        self.width = width
        self.dashed = dashed
        self.titles = titles
    }
}

/// Text at a data point.
public struct ChartText: Sendable {
    public enum Anchor: String, Sendable { case start, middle, end }

    public var x: Double, y: Double
    public var text: String
    public var anchor: Anchor
    public var colour: String
    public var size: Double
    /// Offset in pixels (right, down).
    public var dx: Double, dy: Double

    public init(x: Double, y: Double, _ text: String, anchor: Anchor = .middle, colour: String = "#222222",
                size: Double = 11, dx: Double = 0, dy: Double = 0) {
        self.x = x
        self.y = y
        self.text = text
        self.anchor = anchor
        self.colour = colour
        self.size = size
        self.dx = dx
        self.dy = dy
    }
}

/// One layer of a chart, drawn in order (later on top).
public enum ChartLayer: Sendable {
    case line(LineSeries)
    case points(PointSeries)
    case bars(BarSeries)
    /// Rectangles; `label` names them in the legend (with the first one's fill).
    case rects([ChartRect], label: String?)
    case rules(RuleSeries)
    case texts([ChartText])
}

/// A legend entry beyond the labelled series.
public struct LegendEntry: Sendable, Equatable {
    public enum Swatch: String, Sendable { case line, box, point, ring }
    public var label: String
    public var colour: String
    public var swatch: Swatch

    public init(_ label: String, colour: String, swatch: Swatch = .box) {
        self.label = label
        self.colour = colour
        self.swatch = swatch
    }
}

/// A plot drawn as inline SVG: a title, two axes with ticks, grid and titles (with units), a legend, the data
/// layers clipped to the plot area, and optionally a colour bar.
///
/// The SVG carries what a reader needs to take the numbers back (tests do): `data-x-domain`, `data-y-domain`,
/// `data-x-scale`, `data-y-scale`, `data-area` (x, y, width, height of the plot area in pixels) and, for an axis
/// that grows down or left, `data-x-reversed`/`data-y-reversed` on the `<svg>`;
/// each series is a `polyline`/`circle`/`rect` with `data-label`. Coordinates are written to 0.1 px.
public struct Chart: Sendable {
    /// Unique on the page; also the stem of the clip path's id.
    public var id: String
    /// Extra CSS classes (`plot-psd`), used by tests and the page's style.
    public var cssClass: String
    public var title: String
    /// Alternative text: what the plot shows, in a sentence.
    public var description: String?
    public var width: Double
    public var height: Double
    public var x: Axis
    public var y: Axis
    public var layers: [ChartLayer]
    /// Legend entries besides the labelled layers'.
    public var legend: [LegendEntry]
    public var colourBar: ColourBar?

    public init(id: String, cssClass: String, title: String, description: String? = nil, width: Double = 720,
                height: Double = 260, x: Axis, y: Axis, layers: [ChartLayer] = [], legend: [LegendEntry] = [],
                colourBar: ColourBar? = nil) {
        self.id = id
        self.cssClass = cssClass
        self.title = title
        self.description = description
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.layers = layers
        self.legend = legend
        self.colourBar = colourBar
    }

    // MARK: - Rendering

    /// Character width estimate of the tick font (11–12 px sans-serif), for layout.
    static let characterWidth = 6.8

    /// The SVG element.
    public func svg() -> String {
        let xTicks = ticks(for: x, values: dataValues(axis: \.x), length: width - 120)
        let yTicks = ticks(for: y, values: dataValues(axis: \.y), length: height - 80)
        let entries = legendEntries()

        // Layout: title, legend rows, plot area, x ticks and title; y ticks and title at the left.
        let yLabelWidth = Double(yTicks.labels.map(\.count).max() ?? 1) * Self.characterWidth
        let left = (16 + 8 + yLabelWidth + 6).rounded(.up)
        let right = colourBar == nil ? 16.0 : 96.0
        let legendLayout = layoutLegend(entries, width: width - left - right)
        let top = 26 + Double(legendLayout.rows) * 18 + 6
        let bottom = 44.0
        let area = Area(x: left, y: top, width: max(10, width - left - right), height: max(10, height - top - bottom))
        let xScale = Scale(axis: x, domain: xTicks.domain, from: area.x, to: area.x + area.width)
        let yScale = Scale(axis: y, domain: yTicks.domain, from: area.y + area.height, to: area.y)

        var out = ""
        out += "<svg id=\"\(Markup.escape(id))\" class=\"plot \(Markup.escape(cssClass))\" width=\"\(n(width))\" "
        out += "height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" "
        out += "aria-labelledby=\"\(Markup.escape(id))-title\" "
        out += "data-x-scale=\"\(x.scale.rawValue)\" data-y-scale=\"\(y.scale.rawValue)\" "
        out += "data-x-domain=\"\(d(xTicks.domain.lowerBound)) \(d(xTicks.domain.upperBound))\" "
        out += "data-y-domain=\"\(d(yTicks.domain.lowerBound)) \(d(yTicks.domain.upperBound))\" "
        out += "data-area=\"\(n(area.x)) \(n(area.y)) \(n(area.width)) \(n(area.height))\""
        if x.reversed { out += " data-x-reversed=\"true\"" }
        if y.reversed { out += " data-y-reversed=\"true\"" }
        out += ">\n"
        out += "<title id=\"\(Markup.escape(id))-title\">\(Markup.escape(title))</title>\n"
        if let description { out += "<desc>\(Markup.escape(description))</desc>\n" }
        out += "<defs><clipPath id=\"\(Markup.escape(id))-clip\"><rect x=\"\(n(area.x))\" y=\"\(n(area.y))\" "
        out += "width=\"\(n(area.width))\" height=\"\(n(area.height))\"/></clipPath>"
        if let colourBar { out += gradient(colourBar) }
        out += "</defs>\n"
        out += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#FFFFFF\"/>\n"
        out += "<text class=\"chart-title\" x=\"\(n(left))\" y=\"17\">\(Markup.escape(title))</text>\n"
        out += legendLayout.svg
        out += axes(area: area, xTicks: xTicks, yTicks: yTicks, xScale: xScale, yScale: yScale)
        out += "<g class=\"data\" clip-path=\"url(#\(Markup.escape(id))-clip)\">\n"
        for layer in layers { out += draw(layer, area: area, xScale: xScale, yScale: yScale) }
        out += "</g>\n"
        out += "<rect class=\"frame\" x=\"\(n(area.x))\" y=\"\(n(area.y))\" width=\"\(n(area.width))\" "
        out += "height=\"\(n(area.height))\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1\"/>\n"
        if let colourBar { out += drawColourBar(colourBar, area: area) }
        out += "</svg>\n"
        return out
    }

    struct Area { var x, y, width, height: Double }

    /// Maps data values of one axis to pixels.
    struct Scale {
        let log: Bool
        let lo: Double, hi: Double
        let from: Double, to: Double
        let reversed: Bool

        init(axis: Axis, domain: ClosedRange<Double>, from: Double, to: Double) {
            log = axis.scale == .log
            lo = log ? Foundation.log10(domain.lowerBound) : domain.lowerBound
            hi = log ? Foundation.log10(domain.upperBound) : domain.upperBound
            reversed = axis.reversed
            self.from = from
            self.to = to
        }

        /// The pixel of `value`, or `nil` for values the scale cannot show (NaN, ≤ 0 on a log axis).
        func callAsFunction(_ value: Double) -> Double? {
            guard value.isFinite, !log || value > 0 else { return nil }
            let v = log ? Foundation.log10(value) : value
            var t = hi > lo ? (v - lo) / (hi - lo) : 0.5
            if reversed { t = 1 - t }
            // Far outside the area: clamp so that paths stay drawable (the clip path cuts them).
            t = min(10, max(-10, t))
            return from + t * (to - from)
        }
    }

    private func dataValues(axis: KeyPath<ChartLayerValues, [Double]>) -> [Double] {
        layers.flatMap { ChartLayerValues($0)[keyPath: axis] }
    }

    private func ticks(for axis: Axis, values: [Double], length: Double) -> Ticks {
        let count = axis.tickCount ?? max(2, min(10, Int(length / 70)))
        switch axis.kind {
        case .categories(let names):
            return Ticks(values: names.indices.map(Double.init), labels: names,
                         domain: axis.domain ?? (-0.5...(Double(max(1, names.count)) - 0.5)))
        case .date:
            let domain = axis.domain ?? padded(extent(values, log: false) ?? (0...86_400), by: axis.padding, log: false)
            return Ticks.dates(domain, count: count)
        case .number:
            let log = axis.scale == .log
            var domain = axis.domain ?? extent(values, log: log) ?? (log ? 1...10 : 0...1)
            if axis.includeZero && !log {
                domain = min(0, domain.lowerBound)...max(0, domain.upperBound)
            }
            if axis.domain == nil { domain = padded(domain, by: axis.padding, log: log) }
            let expand = axis.expand && axis.domain == nil
            return log ? Ticks.log10(domain, count: count, expand: expand)
                       : Ticks.linear(domain, count: count, expand: expand, integer: axis.integerTicks)
        }
    }

    private func extent(_ values: [Double], log: Bool) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for value in values where value.isFinite && (!log || value > 0) {
            lo = Swift.min(lo, value)
            hi = Swift.max(hi, value)
        }
        return lo <= hi ? lo...hi : nil
    }

    private func padded(_ domain: ClosedRange<Double>, by share: Double, log: Bool) -> ClosedRange<Double> {
        guard share > 0 else { return domain }
        if log {
            let factor = pow(domain.upperBound / domain.lowerBound, share)
            return (domain.lowerBound / factor)...(domain.upperBound * factor)
        }
        let pad = (domain.upperBound - domain.lowerBound) * share
        return pad > 0 ? (domain.lowerBound - pad)...(domain.upperBound + pad) : domain
    }

    // MARK: Axes

    private func axes(area: Area, xTicks: Ticks, yTicks: Ticks, xScale: Scale, yScale: Scale) -> String {
        var out = "<g class=\"axis x-axis\">\n"
        let isCategoryX = { if case .categories = x.kind { return true } else { return false } }()
        for (value, label) in zip(xTicks.values, xTicks.labels) {
            guard let px = xScale(value), px >= area.x - 0.5, px <= area.x + area.width + 0.5 else { continue }
            if !isCategoryX {
                out += "<line class=\"grid\" x1=\"\(n(px))\" y1=\"\(n(area.y))\" x2=\"\(n(px))\" "
                out += "y2=\"\(n(area.y + area.height))\"/>"
            }
            out += "<line class=\"tick\" x1=\"\(n(px))\" y1=\"\(n(area.y + area.height))\" x2=\"\(n(px))\" "
            out += "y2=\"\(n(area.y + area.height + 4))\"/>"
            out += "<text class=\"tick-label\" x=\"\(n(px))\" y=\"\(n(area.y + area.height + 16))\" "
            out += "text-anchor=\"middle\">\(Markup.escape(label))</text>\n"
        }
        out += "<text class=\"axis-title\" x=\"\(n(area.x + area.width / 2))\" y=\"\(n(area.y + area.height + 36))\" "
        out += "text-anchor=\"middle\">\(Markup.escape(x.title))</text>\n</g>\n"
        out += "<g class=\"axis y-axis\">\n"
        let isCategoryY = { if case .categories = y.kind { return true } else { return false } }()
        for (value, label) in zip(yTicks.values, yTicks.labels) {
            guard let py = yScale(value), py >= area.y - 0.5, py <= area.y + area.height + 0.5 else { continue }
            if !isCategoryY {
                out += "<line class=\"grid\" x1=\"\(n(area.x))\" y1=\"\(n(py))\" x2=\"\(n(area.x + area.width))\" "
                out += "y2=\"\(n(py))\"/>"
            }
            out += "<line class=\"tick\" x1=\"\(n(area.x - 4))\" y1=\"\(n(py))\" x2=\"\(n(area.x))\" y2=\"\(n(py))\"/>"
            out += "<text class=\"tick-label\" x=\"\(n(area.x - 6))\" y=\"\(n(py + 4))\" "
            out += "text-anchor=\"end\">\(Markup.escape(label))</text>\n"
        }
        let cy = area.y + area.height / 2
        out += "<text class=\"axis-title\" x=\"14\" y=\"\(n(cy))\" text-anchor=\"middle\" "
        out += "transform=\"rotate(-90 14 \(n(cy)))\">\(Markup.escape(y.title))</text>\n</g>\n"
        return out
    }

    // MARK: Legend

    private func legendEntries() -> [LegendEntry] {
        var entries: [LegendEntry] = []
        for layer in layers {
            switch layer {
            case .line(let s):
                if let label = s.label, s.inLegend { entries.append(LegendEntry(label, colour: s.colour, swatch: .line)) }
            case .points(let s):
                if let label = s.label, s.inLegend {
                    entries.append(LegendEntry(label, colour: s.colour, swatch: s.hollow ? .ring : .point))
                }
            case .bars(let s): if let label = s.label { entries.append(LegendEntry(label, colour: s.colour)) }
            case .rects(let rects, let label):
                if let label, let first = rects.first { entries.append(LegendEntry(label, colour: first.fill)) }
            case .rules(let s): if let label = s.label { entries.append(LegendEntry(label, colour: s.colour, swatch: .line)) }
            case .texts: break
            }
        }
        var unique: [LegendEntry] = []
        for entry in entries + legend where !unique.contains(entry) { unique.append(entry) }
        return unique
    }

    private func layoutLegend(_ entries: [LegendEntry], width available: Double) -> (svg: String, rows: Int) {
        guard !entries.isEmpty else { return ("", 0) }
        let left = (16 + 8 + 6.0)
        var out = "<g class=\"legend\">\n"
        var cx = left, row = 0
        for entry in entries {
            let itemWidth = 18 + Double(entry.label.count) * Self.characterWidth + 16
            if cx > left && cx + itemWidth > left + available { row += 1; cx = left }
            let y = 26 + Double(row) * 18 + 6
            switch entry.swatch {
            case .line:
                out += "<line x1=\"\(n(cx))\" y1=\"\(n(y))\" x2=\"\(n(cx + 14))\" y2=\"\(n(y))\" stroke=\"\(entry.colour)\" "
                out += "stroke-width=\"2.5\"/>"
            case .box:
                out += "<rect x=\"\(n(cx))\" y=\"\(n(y - 5))\" width=\"14\" height=\"10\" fill=\"\(entry.colour)\"/>"
            case .point:
                out += "<circle cx=\"\(n(cx + 7))\" cy=\"\(n(y))\" r=\"4\" fill=\"\(entry.colour)\"/>"
            case .ring:
                out += "<circle cx=\"\(n(cx + 7))\" cy=\"\(n(y))\" r=\"4\" fill=\"#FFFFFF\" stroke=\"\(entry.colour)\" "
                out += "stroke-width=\"1.5\"/>"
            }
            out += "<text class=\"legend-label\" x=\"\(n(cx + 18))\" y=\"\(n(y + 4))\">\(Markup.escape(entry.label))</text>\n"
            cx += itemWidth
        }
        out += "</g>\n"
        return (out, row + 1)
    }

    // MARK: Layers

    private func draw(_ layer: ChartLayer, area: Area, xScale: Scale, yScale: Scale) -> String {
        var out = ""
        switch layer {
        case .line(let s):
            let dash = s.dashed ? " stroke-dasharray=\"5 3\"" : ""
            let label = s.label.map { " data-label=\"\(Markup.escape($0))\"" } ?? ""
            var run = ""
            func flush() {
                if !run.isEmpty {
                    out += "<polyline class=\"series\"\(label) fill=\"none\" stroke=\"\(s.colour)\" "
                    out += "stroke-width=\"\(n(s.width))\"\(dash) stroke-linejoin=\"round\" points=\"\(run)\"/>\n"
                }
                run = ""
            }
            for (xv, yv) in zip(s.xs, s.ys) {
                guard let px = xScale(xv), let py = yScale(yv) else { flush(); continue }
                if !run.isEmpty { run += " " }
                run += n(px) + "," + n(py)
            }
            flush()
        case .points(let s):
            let label = s.label.map { " data-label=\"\(Markup.escape($0))\"" } ?? ""
            let paint = s.hollow ? "fill=\"#FFFFFF\" stroke=\"\(s.colour)\" stroke-width=\"1.5\""
                                 : "fill=\"\(s.colour)\""
            for index in s.xs.indices {
                guard let px = xScale(s.xs[index]), let py = yScale(s.ys[index]) else { continue }
                let r = s.radius
                let shape: String
                switch s.shape {
                case .circle:
                    shape = "<circle class=\"point\"\(label) cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"\(n(r))\" \(paint)"
                case .square:
                    shape = "<rect class=\"point\"\(label) x=\"\(n(px - r))\" y=\"\(n(py - r))\" width=\"\(n(2 * r))\" "
                        + "height=\"\(n(2 * r))\" \(paint)"
                case .diamond:
                    shape = "<polygon class=\"point\"\(label) points=\"\(n(px)),\(n(py - r - 1)) \(n(px + r + 1)),\(n(py)) "
                        + "\(n(px)),\(n(py + r + 1)) \(n(px - r - 1)),\(n(py))\" \(paint)"
                case .cross:
                    shape = "<path class=\"point\"\(label) d=\"M\(n(px - r)) \(n(py - r))L\(n(px + r)) \(n(py + r))"
                        + "M\(n(px - r)) \(n(py + r))L\(n(px + r)) \(n(py - r))\" stroke=\"\(s.colour)\" stroke-width=\"2\" fill=\"none\""
                }
                if let title = s.titles?[index] {
                    out += shape + "><title>\(Markup.escape(title))</title></\(elementName(s.shape))>\n"
                } else {
                    out += shape + "/>\n"
                }
            }
        case .bars(let s):
            let label = s.label.map { " data-label=\"\(Markup.escape($0))\"" } ?? ""
            for index in s.xs.indices {
                let base = s.bases?[index] ?? s.base
                guard let x0 = xScale(s.xs[index]), let x1 = xScale(s.xs[index] + s.widths[index]),
                      let y0 = yScale(base) ?? (y.scale == .log ? area.y + area.height : nil),
                      let y1 = yScale(s.ys[index]) else { continue }
                out += rect(x0: x0, x1: x1, y0: y0, y1: y1, attributes: "class=\"bar\"\(label) fill=\"\(s.colour)\"",
                            title: s.titles?[index], minimumWidth: 1)
            }
        case .rects(let rects, let label):
            let labelAttribute = label.map { " data-label=\"\(Markup.escape($0))\"" } ?? ""
            for r in rects {
                let x0 = r.x0.flatMap { xScale($0) } ?? area.x
                let x1 = r.x1.flatMap { xScale($0) } ?? (area.x + area.width)
                let y0 = r.y0.flatMap { yScale($0) } ?? (area.y + area.height)
                let y1 = r.y1.flatMap { yScale($0) } ?? area.y
                let opacity = r.opacity < 1 ? " fill-opacity=\"\(Markup.number(r.opacity, decimals: 2))\"" : ""
                out += rect(x0: x0, x1: x1, y0: y0, y1: y1,
                            attributes: "class=\"area\"\(labelAttribute) fill=\"\(r.fill)\"\(opacity)", title: r.title,
                            minimumWidth: 1)
            }
        case .rules(let s):
            let label = s.label.map { " data-label=\"\(Markup.escape($0))\"" } ?? ""
            let dash = s.dashed ? " stroke-dasharray=\"4 3\"" : ""
            for index in s.xs.indices {
                guard let px = xScale(s.xs[index]) else { continue }
                let line = "<line class=\"rule\"\(label) x1=\"\(n(px))\" y1=\"\(n(area.y))\" x2=\"\(n(px))\" "
                    + "y2=\"\(n(area.y + area.height))\" stroke=\"\(s.colour)\" stroke-width=\"\(n(s.width))\"\(dash)"
                if let title = s.titles?[index] {
                    out += line + "><title>\(Markup.escape(title))</title></line>\n"
                } else {
                    out += line + "/>\n"
                }
            }
        case .texts(let texts):
            for t in texts {
                guard let px = xScale(t.x), let py = yScale(t.y) else { continue }
                out += "<text class=\"label\" x=\"\(n(px + t.dx))\" y=\"\(n(py + t.dy))\" text-anchor=\"\(t.anchor.rawValue)\" "
                out += "font-size=\"\(n(t.size))\" fill=\"\(t.colour)\">\(Markup.escape(t.text))</text>\n"
            }
        }
        return out
    }

    private func elementName(_ shape: PointSeries.Shape) -> String {
        switch shape {
        case .circle: "circle"
        case .square: "rect"
        case .diamond: "polygon"
        case .cross: "path"
        }
    }

    private func rect(x0: Double, x1: Double, y0: Double, y1: Double, attributes: String, title: String?,
                      minimumWidth: Double) -> String {
        var left = min(x0, x1), w = abs(x1 - x0)
        if w < minimumWidth { left -= (minimumWidth - w) / 2; w = minimumWidth }
        let top = min(y0, y1), h = abs(y1 - y0)
        let element = "<rect \(attributes) x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(w))\" height=\"\(n(h))\""
        if let title { return element + "><title>\(Markup.escape(title))</title></rect>\n" }
        return element + "/>\n"
    }

    // MARK: Colour bar

    private func gradient(_ bar: ColourBar) -> String {
        var out = "<linearGradient id=\"\(Markup.escape(id))-scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
        let count = bar.scale.stops.count
        for index in 0..<count {
            let t = Double(index) / Double(count - 1)
            out += "<stop offset=\"\(Markup.number(t, decimals: 3))\" stop-color=\"\(bar.scale.colour(at: t))\"/>"
        }
        return out + "</linearGradient>"
    }

    private func drawColourBar(_ bar: ColourBar, area: Area) -> String {
        let x0 = area.x + area.width + 14
        var out = "<g class=\"colour-bar\">\n"
        out += "<rect x=\"\(n(x0))\" y=\"\(n(area.y))\" width=\"12\" height=\"\(n(area.height))\" "
        out += "fill=\"url(#\(Markup.escape(id))-scale)\" stroke=\"#555555\" stroke-width=\"0.5\"/>\n"
        let ticks = Ticks.linear(bar.domain, count: 4, expand: false)
        let scale = Scale(axis: Axis("", unit: ""), domain: bar.domain, from: area.y + area.height, to: area.y)
        for (value, label) in zip(ticks.values, ticks.labels) {
            guard let py = scale(value) else { continue }
            out += "<line class=\"tick\" x1=\"\(n(x0 + 12))\" y1=\"\(n(py))\" x2=\"\(n(x0 + 16))\" y2=\"\(n(py))\"/>"
            out += "<text class=\"tick-label\" x=\"\(n(x0 + 18))\" y=\"\(n(py + 4))\">\(Markup.escape(label))</text>\n"
        }
        let cx = x0 + 62, cy = area.y + area.height / 2
        let title = bar.unit.isEmpty ? bar.label : "\(bar.label) (\(bar.unit))"
        out += "<text class=\"axis-title\" x=\"\(n(cx))\" y=\"\(n(cy))\" text-anchor=\"middle\" "
        out += "transform=\"rotate(-90 \(n(cx)) \(n(cy)))\">\(Markup.escape(title))</text>\n"
        return out + "</g>\n"
    }

    /// A pixel coordinate, to 0.1 px.
    private func n(_ value: Double) -> String { Markup.number(value, decimals: 1) }
    /// A domain bound, exactly (Swift's shortest round-trip form), to take data back.
    private func d(_ value: Double) -> String { "\(value)" }
}

/// The x and y values a layer puts on the axes (for the data domain).
struct ChartLayerValues {
    var x: [Double] = []
    var y: [Double] = []

    init(_ layer: ChartLayer) {
        switch layer {
        case .line(let s): x = s.xs; y = s.ys
        case .points(let s): x = s.xs; y = s.ys
        case .bars(let s):
            x = s.xs + zip(s.xs, s.widths).map { $0 + $1 }
            y = s.ys + (s.bases ?? [s.base])
        case .rects(let rects, _):
            x = rects.flatMap { [$0.x0, $0.x1].compactMap { $0 } }
            y = rects.flatMap { [$0.y0, $0.y1].compactMap { $0 } }
        case .rules(let s): x = s.xs
        case .texts(let texts): x = texts.map(\.x); y = texts.map(\.y)
        }
    }
}
