/// The messages before each trial's first frame, scanned once over all trials: the mode in force and the
/// NEWTARGETs since the previous trial (spec §2.5).
struct TrialPreambleScan {
    /// The next message to scan.
    private var scanned = 0
    /// The last MODECHANGE scanned.
    private(set) var mode: String?
    private var newTargetPositions: [Int] = []

    /// Scans on up to `firstMessage` and returns the number of NEWTARGETs after `previousEndMessage`.
    mutating func advance(_ file: SaveFile, to firstMessage: Int, countingNewTargetsAfter previousEndMessage: Int) -> Int {
        var newTargets = 0
        while scanned < firstMessage {
            switch file.messages[scanned].payload {
            case .modeChange(let text): mode = text
            case .newTarget: newTargetPositions.append(scanned)
            default: break
            }
            scanned += 1
        }
        while let position = newTargetPositions.last, position > previousEndMessage {
            newTargets += 1
            newTargetPositions.removeLast()
        }
        newTargetPositions.removeAll(keepingCapacity: true)
        return newTargets
    }
}
