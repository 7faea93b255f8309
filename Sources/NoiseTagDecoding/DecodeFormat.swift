import MindAffect
import Tables

/// MindAffect save files decoded offline (`nt-analyze decode`): each file cut, modelled and cross-validated on its
/// own; the tables of several files are concatenated.
public struct DecodeFormat: InputFormat {
    public let options: DecodeOptions
    public var tableNames: [String] { DecodeTables.names }

    public init(options: DecodeOptions = DecodeOptions()) {
        self.options = options
    }

    public func read(_ input: InputSource) throws -> DecodedFile {
        let file = try SaveFile.parse(try input.contents(), sourceFile: input.path, skipBadLines: options.skipBadLines)
        return try DecodedFile.decode(file, options: options)
    }

    public func summary(of parsed: DecodedFile) -> String? {
        let r = parsed.recording, result = parsed.result
        let wrong = result.curve.predicted.filter { $0.last.map { $0 != 0 } ?? true }.count
        return "\(r.sourceFile): \(r.trialCount) trials × \(r.windowSamples) samples × \(r.channelCount) channels at \(r.fs.shortText) Hz; "
            + "audc_score \(String(format: "%.4f", result.audcScore)); \(wrong) of \(r.trialCount) wrong at full length"
    }

    public func tables(_ parsed: [DecodedFile]) -> FormatOutput {
        var tables: [Table] = []
        for decoded in parsed {
            let events = EventCoding(states: decoded.recording.y, trials: decoded.recording.trialCount,
                                     samples: decoded.recording.windowSamples, outputs: decoded.recording.outputCount,
                                     types: decoded.result.model.eventTypes)
            let scalings = decoded.result.model.spatialFilters.indices.map {
                ResponseScaling(model: decoded.result.model, component: $0, recording: decoded.recording, events: events)
            }
            tables += [DecodeTables.summary(decoded), DecodeTables.trials(decoded), DecodeTables.curve(decoded),
                       DecodeTables.model(decoded), DecodeTables.impulseResponse(decoded, scalings: scalings)]
        }
        let anomalies = parsed.flatMap(\.anomalies)
        // The tables in output order, each file's rows in input order.
        let ordered = DecodeTables.names.dropLast().flatMap { name in tables.filter { $0.name == name } }
        return FormatOutput(tables: ordered + [.anomalies(anomalies)], anomalies: anomalies)
    }
}
