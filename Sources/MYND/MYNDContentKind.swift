import Foundation

/// What a file holds, from its first bytes, never from its extension alone (spec §1.2).
public enum MYNDContentKind: Sendable, Equatable {
    /// Nothing but whitespace (or nothing at all).
    case empty
    /// An OpenPGP message: ASCII armor (what the app writes) or binary; the recipient key ID where readable.
    case encrypted(armored: Bool, keyID: String?)
    /// An HDF5 file (signature at offset 0, 512, 1024, …).
    case hdf5
    /// A JSON document (`{` after an optional BOM and whitespace).
    case json
    /// A PDF (the signed consent).
    case pdf
    /// Anything else; `found` describes the first bytes.
    case other(found: String)

    /// The HDF5 signature `89 48 44 46 0D 0A 1A 0A`.
    static let hdf5Signature: [UInt8] = [0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The public key IDs of the repository's dummy key (primary and encryption subkey), whose secret is public.
    public static let dummyKeyIDs: Set<String> = ["752C8FA870ABC7FE", "FBEB35FB475E6E8A"]

    /// Sniffs `data`.
    public static func detect(_ data: Data) -> MYNDContentKind {
        let bytes = [UInt8](data.prefix(4096))
        var offset = 0
        while offset <= data.count - hdf5Signature.count {
            if data.count >= offset + 8, data[data.startIndex + offset ..< data.startIndex + offset + 8]
                .elementsEqual(hdf5Signature) { return .hdf5 }
            offset = offset == 0 ? 512 : offset * 2
            if offset > (1 << 24) { break }
        }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return .empty }
        let head = bytes[start...]
        if head.starts(with: Array("-----BEGIN PGP MESSAGE-----".utf8)) {
            return .encrypted(armored: true, keyID: armoredKeyID(data))
        }
        if [0x84, 0x85, 0x86, 0x87, 0xC1].contains(bytes[0]) {
            return .encrypted(armored: false, keyID: packetKeyID(bytes))
        }
        if head.first == UInt8(ascii: "{") { return .json }
        if head.starts(with: Array("%PDF".utf8)) { return .pdf }
        let text = String(decoding: head.prefix(16), as: UTF8.self)
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0xFFFD }
        return .other(found: printable ? "\"\(text)…\""
                      : head.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " "))
    }

    /// The recipient key ID of an ASCII-armored message: the base64 body after the first empty line, up to the
    /// `=` checksum line, whose first packet is a public-key encrypted session key (tag 1).
    static func armoredKeyID(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(1 << 16), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r"))) }
        guard let blank = lines.firstIndex(of: "") else { return nil }
        var body = ""
        for line in lines[(blank + 1)...] {
            if line.hasPrefix("=") || line.hasPrefix("-----") { break }
            body += line
        }
        // The first packet is short: decode a prefix whose length is a multiple of 4.
        let usable = String(body.prefix(min(body.count, 512) / 4 * 4))
        guard let decoded = Data(base64Encoded: usable) else { return nil }
        return packetKeyID([UInt8](decoded))
    }

    /// The key ID of a leading PKESK packet (tag 1, version 3), old or new packet format.
    static func packetKeyID(_ bytes: [UInt8]) -> String? {
        guard let tag = bytes.first, tag & 0x80 != 0 else { return nil }
        var index = 1
        if tag & 0x40 != 0 {
            guard tag & 0x3F == 1, bytes.count > 1 else { return nil }
            let first = bytes[1]
            index = first < 192 ? 2 : first < 224 ? 3 : 6
        } else {
            guard (tag >> 2) & 0x0F == 1 else { return nil }
            index = 1 + [1, 2, 4, 0][Int(tag & 0x03)]
        }
        guard bytes.count >= index + 9, bytes[index] == 3 else { return nil }
        return bytes[(index + 1)...(index + 8)].map { String(format: "%02X", $0) }.joined()
    }
}
