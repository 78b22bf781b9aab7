import LprojService
import LprojSystemd
import ServiceLifecycle

/// Hands each change of a user's desktop languages, as the watcher reads
/// them on the system bus, to the service, in order: the clients of that
/// user that follow their preferred languages switch at once.
struct DesktopLanguageFollower: Service {
    let watcher: DesktopLanguageWatcher
    let service: LocalizationService

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await change in watcher.changes {
                await service.desktopLanguagesChanged(uid: change.uid, to: DesktopLanguages.locales(fromPOSIX: change.languages))
            }
        }
    }
}
