/// One message of a MindAffect hub save file: one logged line (spec §1.2–1.3).
public struct HubMessage: Sendable, Equatable {
    /// The physical line, counted from 1.
    public var line: Int
    /// Hub receive time: the low 32 bits of epoch milliseconds, as logged (signed).
    public var rts: Int
    /// The client's `ts` mapped onto the hub clock, as logged (signed 32-bit).
    public var sts: Int
    /// The client's own millisecond clock.
    public var ts: Int
    /// The message NAME, e.g. `DATAPACKET` (unknown names are kept as written).
    public var name: String
    /// The index of the sending client in ``SaveFile/clients``.
    public var client: Int
    /// The parsed payload.
    public var payload: HubPayload

    public init(line: Int, rts: Int, sts: Int, ts: Int, name: String, client: Int, payload: HubPayload) {
        self.line = line
        self.rts = rts
        self.sts = sts
        self.ts = ts
        self.name = name
        self.client = client
        self.payload = payload
    }
}

/// One `{objID,state}` pair of a STIMULUSEVENT (after the signed-byte fix, T9).
public struct ObjectState: Sendable, Equatable {
    public var objectID: Int
    public var state: Int

    public init(objectID: Int, state: Int) {
        self.objectID = objectID
        self.state = state
    }
}

/// One `{objID,probability}` pair of a PREDICTEDTARGETDIST.
public struct ObjectProbability: Sendable, Equatable {
    public var objectID: Int
    public var probability: Double

    public init(objectID: Int, probability: Double) {
        self.objectID = objectID
        self.probability = probability
    }
}

/// The payload of a hub message, by NAME (spec §1.3).
public enum HubPayload: Sendable, Equatable {
    /// DATAPACKET: `sampleCount` samples of `channelCount` values each, stored in ``SaveFile/sampleValues``
    /// from row `firstSample` on.
    case dataPacket(channelCount: Int, sampleCount: Int, firstSample: Int)
    /// DATAHEADER, as logged: `fs` and `channelCount` are swapped by most drivers (T1).
    case dataHeader(fs: Double, channelCount: Int, labels: [String])
    /// STIMULUSEVENT: the objects reported and their states.
    case stimulusEvent([ObjectState])
    /// MODECHANGE: the new mode, any text.
    case modeChange(String)
    /// NEWTARGET (no payload).
    case newTarget
    /// SELECTION: the selected object.
    case selection(objectID: Int)
    /// PREDICTEDTARGETPROB: the predicted object and the probability that it is wrong.
    case predictedTargetProb(yest: Int, perr: Double)
    /// PREDICTEDTARGETDIST: a probability per object.
    case predictedTargetDist([ObjectProbability])
    /// SIGNALQUALITY: one value per channel.
    case signalQuality([Double])
    /// HEARTBEAT: its text, `nil` for `v:NULL`.
    case heartbeat(String?)
    /// LOG: its text.
    case log(String)
    /// RESET (no payload).
    case reset
    /// OUTPUTSCORE: the scores.
    case outputScore([Double])
    /// SUBSCRIBE, TICKTOCK and unknown names: the payload text, not parsed.
    case unparsed(String)
}

/// The message names of the hub protocol (spec §1.3).
public enum MessageName {
    public static let dataPacket = "DATAPACKET"
    public static let dataHeader = "DATAHEADER"
    public static let stimulusEvent = "STIMULUSEVENT"
    public static let modeChange = "MODECHANGE"
    public static let newTarget = "NEWTARGET"
    public static let selection = "SELECTION"
    public static let predictedTargetProb = "PREDICTEDTARGETPROB"
    public static let predictedTargetDist = "PREDICTEDTARGETDIST"
    public static let signalQuality = "SIGNALQUALITY"
    public static let heartbeat = "HEARTBEAT"
    public static let log = "LOG"
    public static let reset = "RESET"
    public static let outputScore = "OUTPUTSCORE"
    public static let subscribe = "SUBSCRIBE"
    public static let tickTock = "TICKTOCK"

    /// Every name the toolkit knows; any other is counted and reported with `W_UNKNOWN`.
    public static let known: Set<String> = [
        dataPacket, dataHeader, stimulusEvent, modeChange, newTarget, selection, predictedTargetProb,
        predictedTargetDist, signalQuality, heartbeat, log, reset, outputScore, subscribe, tickTock,
    ]
}
