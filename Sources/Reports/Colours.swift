/// Colours of the plots: a categorical palette safe for colour-blind readers (Okabe & Ito) and a sequential scale.
public enum Palette {
    /// Okabe–Ito: blue, vermilion, bluish green, reddish purple, orange, sky blue, yellow, black.
    public static let categorical = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#B8A100",
                                     "#000000"]

    /// The i-th categorical colour (repeating).
    public static func colour(_ index: Int) -> String { categorical[((index % categorical.count) + categorical.count) % categorical.count] }

    public static let good = "#009E73"
    public static let warning = "#E69F00"
    public static let bad = "#D55E00"
    public static let neutral = "#999999"
    public static let shade = "#DDDDDD"
}

/// A sequential colour scale (viridis, from dark blue through green to yellow), for rasters with a ``ColourBar``.
public struct ColourScale: Sendable, Equatable {
    /// The stops, evenly spaced over 0…1, as RGB.
    public var stops: [(UInt8, UInt8, UInt8)]

    public static func == (a: ColourScale, b: ColourScale) -> Bool {
        a.stops.elementsEqual(b.stops) { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
    }

    public init(stops: [(UInt8, UInt8, UInt8)]) {
        precondition(stops.count >= 2, "a colour scale needs two stops")
        self.stops = stops
    }

    /// Viridis at nine points.
    public static let viridis = ColourScale(stops: [
        (0x44, 0x01, 0x54), (0x47, 0x2D, 0x7B), (0x3B, 0x52, 0x8B), (0x2C, 0x72, 0x8E), (0x21, 0x91, 0x8C),
        (0x28, 0xAE, 0x80), (0x5E, 0xC9, 0x62), (0xAD, 0xDC, 0x30), (0xFD, 0xE7, 0x25),
    ])

    /// The colour at `t` (clamped to 0…1), linearly between stops, as `#rrggbb`.
    public func colour(at t: Double) -> String {
        let clamped = t.isFinite ? min(1, max(0, t)) : 0
        let position = clamped * Double(stops.count - 1)
        let index = min(stops.count - 2, Int(position))
        let f = position - Double(index)
        let a = stops[index], b = stops[index + 1]
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * f).rounded()) }
        return Self.hex(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// The colour of `value` on `domain`.
    public func colour(of value: Double, in domain: ClosedRange<Double>) -> String {
        let width = domain.upperBound - domain.lowerBound
        return colour(at: width > 0 ? (value - domain.lowerBound) / width : 0.5)
    }

    static func hex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "#" + String([r, g, b].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

/// The key of a colour-scaled raster, drawn right of the plot: the scale as a bar with ticks, and its title.
public struct ColourBar: Sendable {
    public var scale: ColourScale
    public var label: String
    public var unit: String
    public var domain: ClosedRange<Double>

    public init(scale: ColourScale = .viridis, label: String, unit: String, domain: ClosedRange<Double>) {
        self.scale = scale
        self.label = label
        self.unit = unit
        self.domain = domain
    }
}
