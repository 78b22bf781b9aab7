import Foundation
import LprojSystemd
import NIOCore
import VarlinkNIO

/// The errno a fatal error is reported with (`ERRNO=`, which
/// `systemctl status` shows as the service's "Status" error).
enum StartupErrno {
    static func errno(for error: any Error) -> Int32 {
        switch error {
        case let error as IOError: return error.errnoCode
        case let error as SocketPathError: return error.code
        case let error as SocketActivationError: return error.code
        case let error as POSIXError: return error.code.rawValue
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError { return underlying.code.rawValue }
            switch error.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
            case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
            default: return EIO
            }
        default: return EIO
        }
    }
}
