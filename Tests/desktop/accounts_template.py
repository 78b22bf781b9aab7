"""A python3-dbusmock template with accountsservice's interface, as much as lprojd reads of it.

Parameters: `uids` (default [0]), `language` (every user's), `language_by_uid`
({"65534": "ja_JP.UTF-8"}), `languages` (adds the newer Languages list).

Used where the real accounts-daemon cannot run (another system bus owns the
standard address; accounts-daemon needs polkit, which serves only that
address). FindUserById answers /org/freedesktop/Accounts/User<uid>; each
user of the `uids` parameter has Language (and, with `languages`, the newer
Languages), and SetLanguage, which sets it and emits PropertiesChanged and
Changed, as accounts-daemon 22.08 does.
"""

import dbus

BUS_NAME = "org.freedesktop.Accounts"
MAIN_OBJ = "/org/freedesktop/Accounts"
MAIN_IFACE = "org.freedesktop.Accounts"
USER_IFACE = "org.freedesktop.Accounts.User"
SYSTEM_BUS = True


def load(mock, parameters):
    mock.AddMethods(MAIN_IFACE, [("FindUserById", "x", "o", 'ret = "/org/freedesktop/Accounts/User%d" % args[0]')])
    for uid in parameters.get("uids", [0]):
        language = parameters.get("language_by_uid", {}).get(str(uid), parameters.get("language", ""))
        properties = {"Uid": dbus.UInt64(uid), "Language": dbus.String(language)}
        if "languages" in parameters:
            properties["Languages"] = dbus.Array(parameters["languages"], signature="s")
        mock.AddObject(
            f"/org/freedesktop/Accounts/User{uid}",
            USER_IFACE,
            properties,
            [
                (
                    "SetLanguage",
                    "s",
                    "",
                    'self.UpdateProperties("org.freedesktop.Accounts.User", {"Language": dbus.String(args[0])}); '
                    'self.EmitSignal("org.freedesktop.Accounts.User", "Changed", "", [])',
                ),
            ],
        )
