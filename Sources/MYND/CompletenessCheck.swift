import Tables

/// One row of the `completeness` table: one protocol slot of one subject, or files outside the protocol.
public struct CompletenessRow: Sendable, Equatable {
    public var subjectID: String
    public var sessionID: Int
    public var day: Int
    public var scenario: String
    public var kind: MYNDFileName.Kind
    public var expected: Int
    public var found: Int
    public var foundEncrypted: Int
    public var runIDs: [Int]
    /// `complete`, `partial`, `missing` or `extra`.
    public var status: String
}

/// A file of a subject folder as the check sees it: its path and, for encrypted files, the recipient key.
public struct FolderFile: Sendable, Equatable {
    public var path: String
    /// The OpenPGP recipient key of an encrypted file, where it could be read.
    public var keyID: String?

    public init(path: String, keyID: String? = nil) {
        self.path = path
        self.keyID = keyID
    }
}

/// `--check-protocol` (spec §7.3): which files of the protocol a subject folder holds, from the file names.
public enum CompletenessCheck {
    /// The rows and anomalies for the files of one folder (`folder` as given, the `source_file` of each row).
    public static func check(folder: String, files: [FolderFile],
                             protocol study: StudyProtocol) -> (rows: [CompletenessRow], anomalies: [Anomaly]) {
        var anomalies: [Anomaly] = []
        func note(_ path: String, _ code: AnomalyCode, _ message: String, raw: String? = nil) {
            anomalies.append(Anomaly(sourceFile: path, code: code, message: message, raw: raw))
        }
        var named: [(file: FolderFile, name: MYNDFileName)] = []
        for file in files {
            if let name = MYNDFileName(path: file.path) {
                named.append((file, name))
                if name.encrypted, let key = file.keyID, MYNDContentKind.dummyKeyIDs.contains(key) {
                    note(file.path, .dummyKey,
                         "encrypted to the repository's dummy key 0x\(key), whose secret key is public: the data are not protected",
                         raw: key)
                }
            } else {
                note(file.path, .ignored, "not a MYND result or recording name; not counted")
            }
        }
        var rows: [CompletenessRow] = []
        let subjects = Set(named.map(\.name.subjectID)).sorted()
        for subject in subjects {
            let mine = named.filter { $0.name.subjectID == subject }
            var used = Set<String>()
            for slot in study.slots {
                let matching = mine.filter { $0.name.kind == slot.kind && $0.name.sessionID == slot.sessionID }
                for entry in matching {
                    used.insert(entry.file.path)
                    if entry.name.scenario != slot.scenario || entry.name.day != slot.day {
                        note(entry.file.path, .nameMismatch,
                             "session \(slot.sessionID) is \(slot.scenario) on day \(slot.day) in \(study.name), the name says \(entry.name.scenario) on day \(entry.name.day)")
                    }
                }
                let found = matching.count
                let status = found == 0 ? "missing" : found < slot.files ? "partial" : found == slot.files ? "complete" : "extra"
                rows.append(CompletenessRow(subjectID: subject, sessionID: slot.sessionID, day: slot.day,
                                            scenario: slot.scenario, kind: slot.kind, expected: slot.files, found: found,
                                            foundEncrypted: matching.filter(\.name.encrypted).count,
                                            runIDs: matching.map(\.name.runID).sorted(), status: status))
            }
            // Files outside the protocol's slots.
            let outside = mine.filter { !used.contains($0.file.path) }
            let groups = Dictionary(grouping: outside) { "\($0.name.kind.rawValue) \($0.name.sessionID) \($0.name.scenario) \($0.name.day)" }
            for key in groups.keys.sorted() {
                let entries = groups[key]!
                let name = entries[0].name
                rows.append(CompletenessRow(subjectID: subject, sessionID: name.sessionID, day: name.day,
                                            scenario: name.scenario, kind: name.kind, expected: 0, found: entries.count,
                                            foundEncrypted: entries.filter(\.name.encrypted).count,
                                            runIDs: entries.map(\.name.runID).sorted(), status: "extra"))
                for entry in entries {
                    note(entry.file.path, .nameMismatch,
                         "no \(name.kind == .questionnaire ? "questionnaire" : "recording") slot for session \(name.sessionID) in \(study.name)")
                }
            }
            anomalies += runChecks(mine.map { ($0.file.path, $0.name) })
        }
        return (rows, anomalies)
    }

    /// Duplicated runIDs, gaps between them, and a runID going down while the sessionID goes up.
    static func runChecks(_ files: [(path: String, name: MYNDFileName)]) -> [Anomaly] {
        var anomalies: [Anomaly] = []
        let byRun = Dictionary(grouping: files, by: \.name.runID)
        for run in byRun.keys.sorted() where byRun[run]!.count > 1 {
            let paths = byRun[run]!.map(\.path).sorted()
            anomalies.append(Anomaly(sourceFile: paths[0], code: .duplicateRun,
                                     message: "runID \(run) is used by \(paths.count) files", raw: paths.joined(separator: ";")))
        }
        let runs = byRun.keys.sorted()
        for (a, b) in zip(runs, runs.dropFirst()) where b > a + 1 {
            let path = byRun[b]!.map(\.path).sorted()[0]
            anomalies.append(Anomaly(sourceFile: path, code: .runGap,
                                     message: b == a + 2 ? "runID \(a + 1) is absent (lost, not uploaded or skipped)"
                                        : "runIDs \(a + 1)…\(b - 1) are absent (lost, not uploaded or skipped)",
                                     raw: "\(a + 1)-\(b - 1)"))
        }
        let ordered = files.sorted { ($0.name.sessionID, $0.name.runID) < ($1.name.sessionID, $1.name.runID) }
        var highest: (run: Int, session: Int)?
        for file in ordered {
            if let top = highest, file.name.sessionID > top.session, file.name.runID < top.run {
                anomalies.append(Anomaly(sourceFile: file.path, code: .runReset,
                                         message: "runID \(file.name.runID) of session \(file.name.sessionID) is below runID \(top.run) of session \(top.session) (run counter reset?)"))
            }
            if highest == nil || file.name.runID > highest!.run { highest = (file.name.runID, file.name.sessionID) }
        }
        return anomalies
    }

    /// The `completeness` table.
    public static func table(folder: String, rows: [CompletenessRow]) -> Table {
        Table("completeness", [
            .string("source_file", rows.map { _ in folder }, description: "the subject folder as given"),
            .string("subject_id", rows.map(\.subjectID), description: "the subject's UUID"),
            .int64("session_id", rows.map(\.sessionID), description: "session of the protocol slot"),
            .int64("day", rows.map(\.day), description: "study day of the protocol slot"),
            .string("scenario", rows.map(\.scenario), description: "scenario of the protocol slot"),
            .string("kind", rows.map(\.kind.rawValue), description: "q questionnaire, r recording"),
            .int64("expected", rows.map(\.expected), unit: "1", description: "files the protocol expects"),
            .int64("found", rows.map(\.found), unit: "1", description: "files present, encrypted ones included"),
            .int64("found_encrypted", rows.map(\.foundEncrypted), unit: "1", description: "of which .asc"),
            .string("run_ids", rows.map { $0.runIDs.isEmpty ? nil : $0.runIDs.map(String.init).joined(separator: ";") }, description: "ascending; block = position"),
            .string("status", rows.map(\.status), description: "complete, partial, missing or extra"),
        ])
    }
}
