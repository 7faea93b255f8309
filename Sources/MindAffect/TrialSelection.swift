/// A trial's selection: the first SELECTION from its first event up to the next trial's first event, and how many
/// followed it (spec §2.6).
struct TrialSelection {
    /// The selected objID.
    var objectID: Int
    /// The SELECTION's message index.
    var message: Int
    /// Further SELECTIONs in the window (W_MULTI_SEL).
    var extraCount: Int

    /// The first SELECTION among `messages`, nil without one.
    init?(in file: SaveFile, messages: Range<Int>) {
        var first: (objectID: Int, message: Int)?
        var extraCount = 0
        for position in messages {
            guard case .selection(let objectID) = file.messages[position].payload else { continue }
            if first == nil { first = (objectID, position) } else { extraCount += 1 }
        }
        guard let first else { return nil }
        objectID = first.objectID
        message = first.message
        self.extraCount = extraCount
    }

    /// The online prediction: the last PREDICTEDTARGETPROB received (by rts) up to the selection, looking only
    /// among `messages` (the trial's window, a project choice); on equal rts the later message.
    func onlinePrediction(in file: SaveFile, times: MessageTimes, messages: Range<Int>) -> (yest: Int, perr: Double)? {
        var online: (yest: Int, perr: Double, rts: Int64)?
        let selectionRts = times.rtsMs[message]
        for position in messages where times.rtsMs[position] <= selectionRts && position != message {
            if case .predictedTargetProb(let yest, let perr) = file.messages[position].payload,
               online == nil || times.rtsMs[position] >= online!.rts {
                online = (yest, perr, times.rtsMs[position])
            }
        }
        return online.map { ($0.yest, $0.perr) }
    }
}
