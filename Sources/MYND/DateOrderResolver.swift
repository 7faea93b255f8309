/// Chooses the day/month order of a subject's localized dates (spec §4 step 3): the order given with
/// `--date-order`, or (auto) the one under which every recording's `recordingStartTime` agrees with its first
/// TimeStamp within 120 s and every unambiguous date reads; without such evidence `mdy` for language `en`,
/// else `dmy`, flagged as guessed.
public struct DateOrderResolver: Sendable {
    /// The tolerance between a recording's start string and its first TimeStamp.
    public static let tolerance: Double = 120

    /// The order given on the command line; `nil` for auto.
    public let given: DateOrder?
    private var candidates: [String: Set<DateOrder>] = [:]

    public init(given: DateOrder?) {
        self.given = given
    }

    /// Adds the evidence of one time string of a subject; `referenceUTC` is the instant it should denote
    /// (a recording's first TimeStamp), if known.
    public mutating func add(subjectID: String, time: LocalizedTime, referenceUTC: Double?) {
        guard !time.yearFirst else { return }
        var agreeing = Set(time.possibleOrders)
        if let referenceUTC {
            agreeing = agreeing.filter { order in
                time.utcSeconds(order: order).map { abs($0 - referenceUTC) <= DateOrderResolver.tolerance } ?? false
            }
        } else if time.possibleOrders.count > 1 {
            return
        }
        guard !time.possibleOrders.isEmpty else { return }
        candidates[subjectID, default: [.mdy, .dmy]].formIntersection(agreeing)
    }

    /// The order for a subject's ambiguous dates and whether it was guessed.
    public func order(subjectID: String?, locale: String?) -> (order: DateOrder, guessed: Bool) {
        if let given { return (given, false) }
        if let subjectID, let set = candidates[subjectID], !set.isEmpty {
            return (set.contains(.mdy) ? .mdy : .dmy, false)
        }
        let english = (locale ?? "").lowercased().hasPrefix("en")
        return (english ? .mdy : .dmy, true)
    }
}

extension LocalizedTime {
    /// The UTC instant under `order` where the numbers allow it; a date the numbers decide reads by itself.
    public func utcSeconds(resolved order: DateOrder) -> Double? {
        let possible = possibleOrders
        if possible.count == 1 { return utcSeconds(order: possible[0]) }
        return possible.contains(order) ? utcSeconds(order: order) : nil
    }
}
