import Tables

/// Reads a log's lines in order (``ParsedLog/parse(_:sourceFile:skipBadLines:)``): leading blank lines, the
/// header up to the first empty line or the first line that starts like an event, then the events, each kept in
/// ``LogEvents`` as it is read, with the checks that need only it and the event before it.
struct LineReader {
    let sourceFile: String
    let skipBadLines: Bool
    /// The file's line count (a blank last line is not reported).
    let lineCount: Int
    var anomalies: AnomalyRecorder

    private enum Stage { case leadingBlanks, header, beforeEvents, events }
    private var stage = Stage.leadingBlanks
    private var headerLines: [HeaderLine] = []
    private var header: LogHeader?
    private var program: LogProgram?
    private var grammar: EventNameGrammar?
    private var events: LogEvents?
    /// Anomalies of events put in place later (``ParsedLog/checkEvents(_:)``), by event index.
    private var checks = EventChecks()
    /// For the variant (spec §2): an id below 100 written with fewer than 3 digits; a timestamp without 6
    /// decimals (iPad).
    private var unpaddedIDs = false, shortDecimals = false

    init(sourceFile: String, skipBadLines: Bool, lineCount: Int, anomalies: AnomalyRecorder) {
        self.sourceFile = sourceFile
        self.skipBadLines = skipBadLines
        self.lineCount = lineCount
        self.anomalies = anomalies
    }

    private mutating func lineError(_ line: Int, _ code: AnomalyCode, _ message: String,
                                    raw: Substring) throws(InteractLogError) {
        guard skipBadLines else { throw .badLine(file: sourceFile, line: line, code: code.code, text: message) }
        anomalies.add(code, line: line, message, raw: String(raw))
    }

    /// Reads line `number`; returns whether to go on.
    mutating func read(_ line: Substring, number: Int) throws(InteractLogError) -> Bool {
        switch stage {
        case .leadingBlanks:
            if line.isBlank { return true }
            let firstLabel = HeaderLine.parse(line, line: number)?.label
            guard firstLabel == "Name" || firstLabel == "App Version" else {
                throw .notInteractLog(file: sourceFile, line: number, found: String(line))
            }
            stage = .header
            return try read(line, number: number)
        case .header:
            if line.isBlank {
                endHeader()
                return true
            }
            if ParsedLog.startsLikeEvent(line) {
                endHeader()
                return try read(line, number: number)
            }
            if let parsed = HeaderLine.parse(line, line: number) {
                headerLines.append(parsed)
            } else {
                try lineError(number, .headerLine, "expected 'Label:value' in the header, found \(LogText.quoted(line))",
                              raw: line)
            }
            return true
        case .beforeEvents, .events:
            if line.isBlank {
                if number < lineCount || !line.isEmpty {
                    anomalies.add(.blankLine, line: number, "empty line among the events (skipped)")
                }
                return true
            }
            if stage == .beforeEvents {
                // Program: iPad if the first id is 0, or it has `App Version` or an iPad `<Phase> Files` label.
                choose(program: Int(line.prefix { $0 != ";" }))
            }
            guard let program else { return true }
            do {
                add(try EventLine.parse(line, line: number, program: program))
            } catch {
                try lineError(number, error.code, error.text, raw: line)
            }
            return true
        }
    }

    private mutating func endHeader() {
        header = LogHeader.build(headerLines, anomalies: &anomalies)
        headerLines = []
        stage = .beforeEvents
    }

    /// Settles the program at the first event line (or at the end, `firstID` `nil`), and so the grammar.
    private mutating func choose(program firstID: Int?) {
        guard let header else { return }
        let chosen: LogProgram = firstID == 0 || header.appVersion != nil || header.hasOtherPhaseFiles ? .ipad : .java
        program = chosen
        grammar = EventNameGrammar(header: header)
        events = LogEvents(program: chosen, capacity: max(0, lineCount))
        stage = .events
    }

    /// Keeps an event, with the checks that need only it and the one before: id order and gaps, unknown names,
    /// key syntax, points outside the pad.
    private mutating func add(_ line: EventLine) {
        guard var events, let grammar, let header, let program else { return }
        self.events = nil  // one reference, so that adding does not copy
        let index = events.count
        events.append(line, grammar: grammar)
        if index > 0 {
            let previousID = events.id(at: index - 1)
            if line.id <= previousID {
                checks.beforeTimes.append((index, anomaly(.idOrder, line.line, "expected an id above \(previousID), found \(line.id)",
                                                          raw: String(line.idText))))
            } else if line.id > previousID + 1
                        && !(program == .ipad && events.kind(at: index - 1) == .buttonReleased && line.id == previousID + 2) {
                events.insert(.idGap, at: index)
                checks.beforeTimes.append((index, anomaly(.idGap, line.line, "expected id \(previousID + 1), found \(line.id)",
                                                          raw: String(line.idText))))
            }
        }
        switch events.kind(at: index) {
        case .other:
            checks.afterTimes.append((index, anomaly(.unknownEvent, line.line,
                                                     "unknown event \(LogText.quoted(line.name)) (kept as type 'other')",
                                                     raw: String(line.name))))
        case .keyPressed(let key), .keyReleased(let key):
            if !key.wellFormed {
                checks.afterTimes.append((index, anomaly(.keySyntax, line.line,
                                                         "expected Key…_<code>(<descriptor>:<location>), found \(LogText.quoted(line.name))",
                                                         raw: String(line.name))))
            }
        case .buttonDown, .buttonReleased:
            if let width = header.padWidth, let height = header.padHeight,
               line.x < 0 || line.y < 0 || line.x > width || line.y > height {
                events.insert(.outsidePad, at: index)
            }
        default: break
        }
        if program == .ipad {
            if !unpaddedIDs, line.id < 100, line.idText.count < 3 { unpaddedIDs = true }
            if !shortDecimals {
                if let dot = line.timestampText.firstIndex(of: ".") {
                    shortDecimals = line.timestampText[line.timestampText.index(after: dot)...].count != 6
                } else {
                    shortDecimals = true
                }
            }
        }
        self.events = events
    }

    private func anomaly(_ code: AnomalyCode, _ line: Int, _ message: String, raw: String?) -> Anomaly {
        Anomaly(sourceFile: sourceFile, line: line, code: code, message: message, raw: raw)
    }

    /// The parsed log, after the checks that need every event (variant, timestamps).
    mutating func finish() throws(InteractLogError) -> ParsedLog {
        switch stage {
        case .leadingBlanks: throw .empty(file: sourceFile)
        case .header: endHeader(); choose(program: nil)
        case .beforeEvents: choose(program: nil)
        case .events: break
        }
        guard let header, let program, var events else { throw .empty(file: sourceFile) }
        self.events = nil
        events.finishAdding()
        if events.isEmpty {
            anomalies.add(.noEvents, "the log has a header but no event lines")
        }
        let variant = LogVariant.detect(program: program, header: header, events: events, unpaddedIDs: unpaddedIDs,
                                        shortDecimals: shortDecimals, anomalies: &anomalies)
        var log = ParsedLog(sourceFile: sourceFile, encoding: .utf8, lineEnding: .none, header: header,
                            program: program, variant: variant, events: events, timeOrigin: nil, anomalies: anomalies)
        log.normaliseTimestamps()
        log.checkEvents(checks)
        return log
    }
}

/// Anomalies of events found while reading, put in order once the times are known: per event, those before the
/// `W_TS_BACKWARDS` check (id order and gaps) and those after it (unknown names, key syntax).
struct EventChecks {
    var beforeTimes: [(Int, Anomaly)] = []
    var afterTimes: [(Int, Anomaly)] = []
}
