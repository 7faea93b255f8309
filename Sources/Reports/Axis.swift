/// How an axis maps values.
public enum AxisScale: String, Sendable {
    case linear
    /// Base-10 logarithmic; values ≤ 0 are left out.
    case log
}

/// One axis of a ``Chart``: what it shows and in which unit (written on the axis as `label (unit)`), its scale and
/// its domain.
public struct Axis: Sendable {
    /// What values mean on the axis.
    public enum Kind: Sendable, Equatable {
        /// Numbers, ticked at nice values.
        case number
        /// Seconds since 1970 (UTC), ticked at whole days, months or years.
        case date
        /// Named lanes: value `i` is the i-th name (the first at the top of a y axis).
        case categories([String])
    }

    /// What the axis shows, e.g. `frequency`.
    public var label: String
    /// The unit, e.g. `Hz`; empty only for names (categories) and dates, whose ticks say what they are.
    public var unit: String
    public var scale: AxisScale
    public var kind: Kind
    /// The range shown; `nil` takes the data's.
    public var domain: ClosedRange<Double>?
    /// Widen the domain to the outer nice ticks (ignored for dates and categories).
    public var expand: Bool
    /// Keep 0 in the domain (linear number axes).
    public var includeZero: Bool
    /// About how many tick intervals; `nil` chooses from the axis length.
    public var tickCount: Int?
    /// Widen a data domain by this share of its width on each side (dates and unexpanded numbers), so that
    /// markers at the ends are not cut.
    public var padding: Double
    /// Values grow downwards (a y axis) or leftwards (an x axis): screen coordinates, category lanes.
    public var reversed: Bool = false
    /// Ticks only at whole numbers (trial numbers, object ids).
    public var integerTicks: Bool = false

    public init(_ label: String, unit: String, scale: AxisScale = .linear, domain: ClosedRange<Double>? = nil,
                expand: Bool = true, includeZero: Bool = false, tickCount: Int? = nil, padding: Double = 0) {
        self.label = label
        self.unit = unit
        self.scale = scale
        self.kind = .number
        self.domain = domain
        self.expand = expand
        self.includeZero = includeZero
        self.tickCount = tickCount
        self.padding = padding
    }

    /// Named lanes (value `i` is `names[i]`), the first at the top of a y axis (for an x axis, set `reversed` to
    /// false to have it at the left).
    public static func categories(_ label: String, _ names: [String]) -> Axis {
        var axis = Axis(label, unit: "")
        axis.kind = .categories(names)
        axis.domain = -0.5...(Double(max(names.count, 1)) - 0.5)
        axis.expand = false
        axis.reversed = true
        return axis
    }

    /// UTC dates from seconds since 1970.
    public static func date(_ label: String, unit: String = "UTC date", padding: Double = 0.03) -> Axis {
        var axis = Axis(label, unit: unit, padding: padding)
        axis.kind = .date
        axis.expand = false
        return axis
    }

    /// The axis title: `label (unit)`, or the label alone without a unit.
    public var title: String { unit.isEmpty ? label : "\(label) (\(unit))" }
}
