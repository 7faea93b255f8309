import Foundation
import ToolSupport
// bt-decode: being written; see its issue.
Diagnostics(tool: "bt-decode", quiet: false).error("not implemented yet")
exit(69)
