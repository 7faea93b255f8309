import Foundation

/// A named frequency band `[lo, hi]` in Hz (conventions §2: `--bands name:lo-hi,…`).
public struct FrequencyBand: Sendable, Codable, Equatable, Hashable, CustomStringConvertible {
    /// The band's name (`alpha`).
    public var name: String
    /// Lower edge in Hz (inclusive).
    public var lo: Double
    /// Upper edge in Hz (inclusive).
    public var hi: Double

    public init(name: String, lo: Double, hi: Double) {
        self.name = name
        self.lo = lo
        self.hi = hi
    }

    /// The default set: delta 1–4, theta 4–8, alpha 8–12, beta 12–30, gamma 30–45 Hz.
    public static let defaults: [FrequencyBand] = [
        FrequencyBand(name: "delta", lo: 1, hi: 4),
        FrequencyBand(name: "theta", lo: 4, hi: 8),
        FrequencyBand(name: "alpha", lo: 8, hi: 12),
        FrequencyBand(name: "beta", lo: 12, hi: 30),
        FrequencyBand(name: "gamma", lo: 30, hi: 45),
    ]

    /// The 1–45 Hz range that relative band power is taken over.
    public static let relativeReference = FrequencyBand(name: "total", lo: 1, hi: 45)

    /// `name:lo-hi` as the option spells it.
    public var description: String { "\(name):\(Self.format(lo))-\(Self.format(hi))" }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Whether `frequency` lies in the band, edges included.
    @inlinable
    public func contains(_ frequency: Double) -> Bool { frequency >= lo && frequency <= hi }

    /// Parses `name:lo-hi,name:lo-hi,…` (spaces around items allowed). Names must be unique and non-empty,
    /// `0 ≤ lo < hi`, both finite.
    public static func parseList(_ text: String) throws(FrequencyBandParseError) -> [FrequencyBand] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !(items.count == 1 && items[0].isEmpty) else { throw .empty }
        var bands: [FrequencyBand] = []
        for item in items {
            let band = try parse(item)
            if bands.contains(where: { $0.name == band.name }) { throw .duplicateName(band.name) }
            bands.append(band)
        }
        return bands
    }

    /// Parses one `name:lo-hi` item.
    public static func parse(_ item: String) throws(FrequencyBandParseError) -> FrequencyBand {
        guard let colon = item.firstIndex(of: ":") else { throw .malformed(item) }
        let name = item[..<colon].trimmingCharacters(in: .whitespaces)
        let range = item[item.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        // The separator is the first '-' after a leading digit (no negative edges are allowed anyway).
        guard !name.isEmpty, let dash = range.dropFirst().firstIndex(of: "-") else { throw .malformed(item) }
        let loText = range[..<dash].trimmingCharacters(in: .whitespaces)
        let hiText = range[range.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard let lo = Double(loText), let hi = Double(hiText), lo.isFinite, hi.isFinite else {
            throw .malformed(item)
        }
        guard lo >= 0, lo < hi else { throw .invalidRange(item) }
        return FrequencyBand(name: name, lo: lo, hi: hi)
    }
}

/// Why a `--bands` value could not be read.
public enum FrequencyBandParseError: Error, Equatable, CustomStringConvertible {
    case empty
    case malformed(String)
    case invalidRange(String)
    case duplicateName(String)

    public var description: String {
        switch self {
        case .empty: "--bands: expected name:lo-hi,name:lo-hi,…, found an empty list"
        case .malformed(let item): "--bands: expected name:lo-hi (e.g. alpha:8-12), found \"\(item)\""
        case .invalidRange(let item): "--bands: expected 0 ≤ lo < hi, found \"\(item)\""
        case .duplicateName(let name): "--bands: band name \"\(name)\" is given twice"
        }
    }
}
