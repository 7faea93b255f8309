import Tables

/// How ``EDFWriter`` keeps the values in its scratch file until every channel's range is chosen.
enum ScratchEncoding: Equatable {
    /// Each value as a float64 (8 bytes): any signal.
    case float64
    /// Each value as a 32-bit count of grid steps, `stepsPerUnit` steps to the unit (4 bytes): BDF when every
    /// channel declares the same grid, a whole fraction of the unit (the Brainiac's 0.001 µV). BDF stores such a
    /// channel in steps of the grid while its span fits 24 bits, and the digit is then the count less a constant.
    case gridCounts(stepsPerUnit: Double)

    /// The encoding for a file of `kind` holding `channels`. EDF's 16 bits give a step coarser than a fine grid, so
    /// it keeps float64 values (each rounded once, to its own step).
    init(kind: SignalFileKind, channels: [SignalChannel]) {
        self = .float64
        guard kind == .bdf, let grid = channels.first?.grid, channels.allSatisfy({ $0.grid == grid }), grid > 0 else { return }
        let steps = 1 / grid
        let whole = steps.rounded()
        guard whole >= 1, whole <= 1e9, abs(steps - whole) <= 1e-9 * whole else { return }
        self = .gridCounts(stepsPerUnit: whole)
    }

    /// Bytes per value in the scratch file.
    var bytesPerValue: Int {
        switch self {
        case .float64: 8
        case .gridCounts: 4
        }
    }

    /// The digit of a count of grid steps under `range`: by integer arithmetic when the range's step is the grid
    /// (`nil` otherwise: the count's value is then rounded to the range's step).
    func countOffset(for range: PhysicalRange) -> Int? {
        guard case .gridCounts(let stepsPerUnit) = self,
              abs(range.resolution * stepsPerUnit - 1) <= 1e-9 else { return nil }
        // digit = (value − pmin) / step + dmin = count − pmin × stepsPerUnit + dmin
        return range.digitalMinimum - range.physicalMinimum * Int(stepsPerUnit)
    }
}
