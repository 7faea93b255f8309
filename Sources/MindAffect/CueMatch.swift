/// The objID k ≠ 0 whose latched states over a trial's events agree most often with objID 0's, the trial's
/// candidate cued target (spec §2.6).
struct CueMatch {
    /// The best-agreeing objID (the first of equals).
    var objectID: Int
    /// Its share of the events on which its state equals objID 0's.
    var agreement: Double
    /// Whether another objID agrees exactly as well.
    var tied: Bool

    /// The best match among `objectIDs` over `events`, where `column0` is objID 0's state column; nil when no
    /// objID ≠ 0 has a state column.
    init?(stimuli: StimulusSequence, events: ClosedRange<Int>, objectIDs: [Int], column0: Int) {
        var best: (objectID: Int, agreement: Double)?
        var tied = false
        for objectID in objectIDs where objectID != 0 {
            guard let column = stimuli.column(of: objectID) else { continue }
            var same = 0
            for event in events where stimuli.state(event: event, column: column)
                == stimuli.state(event: event, column: column0) { same += 1 }
            let agreement = Double(same) / Double(events.count)
            if best == nil || agreement > best!.agreement { best = (objectID, agreement); tied = false }
            else if agreement == best!.agreement { tied = true }
        }
        guard let best else { return nil }
        objectID = best.objectID
        agreement = best.agreement
        self.tied = tied
    }
}
