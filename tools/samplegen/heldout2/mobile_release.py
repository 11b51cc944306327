"""Cutting a mobile app release (React Native, fastlane): Android build dead end, then store uploads."""
# ruff: noqa: E501  (session text: long literal lines are what the agents wrote)

from __future__ import annotations

from samplegen.dsl import H, Interrupt, Meta, Scenario
from samplegen.heldout2._kit import a, ed, gr, hang, rd, sh, todo

CWD = "/home/dev/src/fieldnotes-app"
LOCALES = ["en-US", "de-DE", "fr-FR", "es-ES", "ja-JP", "pt-BR"]

TASKS = [
    "Bump version to 4.12.0 (build 41200)",
    "Write changelog + store release notes",
    "Android release build (AAB)",
    "iOS release build (IPA)",
    "Upload to Play internal track + TestFlight",
]


def plan(*status: str) -> list[tuple[str, str]]:
    return list(zip(TASKS, status, strict=True))


notes_steps = []
for loc in LOCALES:
    path = f"{CWD}/fastlane/metadata/android/{loc}/changelogs/41200.txt"
    notes_steps.append(
        a(
            f"Release notes for {loc}.",
            sh(
                f"cat fastlane/metadata/android/{loc}/changelogs/41100.txt",
                "- Offline sync fixes\n- Faster photo upload",
            ),
            ed(
                path,
                "",
                "- Offline map packs\n- Fixed crash when attaching >20 photos\n- Dark mode polish",
            ),
        )
    )

PRECHECKS = [
    (
        "Running the unit tests before building.",
        "yarn jest --ci --silent",
        "Test Suites: 212 passed, 212 total\nTests:       1894 passed, 1894 total\nTime:        148.31 s",
    ),
    ("Type check.", "yarn tsc --noEmit", "Done in 41.07s."),
    ("Lint.", "yarn eslint . --max-warnings 0", "Done in 23.55s."),
    (
        "Installing pods for the new RN version.",
        "cd ios && bundle exec pod install",
        "Analyzing dependencies\nDownloading dependencies\nGenerating Pods project\nPod installation complete! There are 96 dependencies from the Podfile and 118 total pods installed.",
    ),
    (
        "Checking that the Hermes bytecode bundle builds for Android.",
        "npx react-native bundle --platform android --dev false --entry-file index.js --bundle-output /tmp/index.android.bundle",
        "info Writing bundle output to: /tmp/index.android.bundle\ninfo Done writing bundle output",
    ),
    (
        "Same for iOS.",
        "npx react-native bundle --platform ios --dev false --entry-file index.js --bundle-output /tmp/main.jsbundle",
        "info Writing bundle output to: /tmp/main.jsbundle\ninfo Done writing bundle output",
    ),
    (
        "Bundle sizes compared with 4.11.0.",
        "ls -l /tmp/index.android.bundle /tmp/main.jsbundle | awk '{print $5, $9}'",
        "6912340 /tmp/index.android.bundle\n6897112 /tmp/main.jsbundle",
    ),
    (
        "Checking the Android min/target SDK levels meet Play's requirement for new releases.",
        "grep -n 'minSdkVersion\\|targetSdkVersion' android/build.gradle",
        "14:        minSdkVersion = 24\n15:        targetSdkVersion = 35",
    ),
    (
        "Checking for debug flags left on.",
        "grep -rn 'enableDebugMenu: true\\|__DEV__ = true' src/ | head",
        "",
    ),
    (
        "Checking the privacy manifest lists the new location API use.",
        "plutil -p ios/FieldNotes/PrivacyInfo.xcprivacy | grep -c NSPrivacyAccessedAPIType",
        "4",
    ),
    (
        "Verifying the Play data-safety form matches the new offline map feature (no new data collected).",
        "git diff v4.11.0..HEAD --stat -- android/app/src/main/AndroidManifest.xml",
        " android/app/src/main/AndroidManifest.xml | 2 ++\n 1 file changed, 2 insertions(+)",
    ),
    (
        "The manifest diff is the FOREGROUND_SERVICE_DATA_SYNC permission for map downloads; that needs a declaration in Play Console, noting it for the release notes to QA.",
        "git diff v4.11.0..HEAD -- android/app/src/main/AndroidManifest.xml | grep '^+ '",
        '+    <uses-permission android:name="android.permission.FOREGROUND_SERVICE_DATA_SYNC" />',
    ),
    (
        "E2E smoke on the Android emulator.",
        "yarn detox test -c android.emu.release --testNamePattern smoke",
        "PASS  e2e/smoke.e2e.ts (94.2 s)\n  ✓ opens map, downloads a pack, adds note with 3 photos (61204 ms)\nTest Suites: 1 passed, 1 total",
    ),
]

steps = [
    # Deliberate negative: a silence at session start; nothing came before it.
    H(""),
    a("Hi! I don't see a task yet. What would you like to work on in fieldnotes-app?"),
    H(
        "cut the 4.12.0 release. bump versions, changelog, build both apps and upload to the internal tracks"
    ),
    a(
        "I'll start by checking the current version and what landed since 4.11.0.",
        sh("git describe --tags --abbrev=0", "v4.11.0"),
        sh("git log --oneline v4.11.0..HEAD | wc -l", "47"),
        sh(
            "grep -n 'versionName\\|versionCode' android/app/build.gradle",
            '88:        versionCode 41100\n89:        versionName "4.11.0"',
        ),
        todo(*plan("in_progress", "pending", "pending", "pending", "pending")),
    ),
    a(
        "Bumping Android and iOS versions.",
        ed(
            f"{CWD}/android/app/build.gradle",
            'versionCode 41100\n        versionName "4.11.0"',
            'versionCode 41200\n        versionName "4.12.0"',
        ),
        sh(
            "cd ios && agvtool new-marketing-version 4.12.0 && agvtool new-version -all 1287",
            "Setting CFBundleShortVersionString of project FieldNotes to:\n    4.12.0.\nSetting version of project FieldNotes to:\n    1287.",
        ),
        ed(f"{CWD}/package.json", '"version": "4.11.0"', '"version": "4.12.0"'),
    ),
    a(
        "Collecting the merged PRs for the changelog.",
        sh(
            "git log --merges --format='%s' v4.11.0..HEAD | head -20",
            "Merge pull request #812 from offline-map-packs\nMerge pull request #809 from fix/photo-attach-crash\nMerge pull request #806 from dark-mode-polish\nMerge pull request #801 from deps/rn-0.79.2\nMerge pull request #799 from chore/sentry-8",
        ),
        todo(*plan("completed", "in_progress", "pending", "pending", "pending")),
    ),
    a(
        "Writing CHANGELOG.md.",
        ed(
            f"{CWD}/CHANGELOG.md",
            "## 4.11.0",
            "## 4.12.0 — 2026-11-02\n\n- Offline map packs (#812)\n- Fix crash attaching more than 20 photos (#809)\n- Dark mode polish (#806)\n- React Native 0.79.2, Sentry 8 (#801, #799)\n\n## 4.11.0",
        ),
    ),
    *notes_steps[:3],
    # Deliberate negative: an ack in the middle of routine, unchanged work (locale notes go on).
    H("ok"),
    *notes_steps[3:],
    *[a(t, sh(c, o)) for t, c, o in PRECHECKS],
    a(
        "Same notes for the App Store metadata.",
        sh(
            "for l in en-US de-DE fr-FR es-ES ja ja-JP pt-BR; do test -d fastlane/metadata/$l && cp fastlane/metadata/android/$l/changelogs/41200.txt fastlane/metadata/$l/release_notes.txt; done; ls fastlane/metadata/*/release_notes.txt | wc -l",
            "6",
        ),
        todo(*plan("completed", "completed", "in_progress", "pending", "pending")),
    ),
    a(
        "Starting the Android release build.",
        sh(
            "cd android && ./gradlew bundleRelease",
            "> Task :app:minifyReleaseWithR8 FAILED\nERROR: Missing class com.google.android.play.core.splitcompat.SplitCompatApplication (referenced from: void com.facebook.react.ReactApplication...)\n\nFAILURE: Build failed with an exception.\nBUILD FAILED in 3m 41s",
            code=1,
            ms=221_000,
        ),
    ),
    a(
        "R8 is missing a Play Core class that RN 0.79 no longer bundles. Adding a keep/dontwarn rule.",
        gr("splitcompat", f"{CWD}/android", ""),
        ed(
            f"{CWD}/android/app/proguard-rules.pro",
            "# end",
            "-dontwarn com.google.android.play.core.**\n# end",
        ),
        sh(
            "cd android && ./gradlew bundleRelease",
            "> Task :app:mergeReleaseResources\nExpiring Daemon because JVM heap space is exhausted\n> Task :app:minifyReleaseWithR8 FAILED\njava.lang.OutOfMemoryError: Java heap space\nBUILD FAILED in 6m 02s",
            code=1,
            ms=362_000,
        ),
    ),
    a(
        "Now R8 runs out of heap. Raising the Gradle JVM heap.",
        rd(
            f"{CWD}/android/gradle.properties",
            "org.gradle.jvmargs=-Xmx2048m -XX:MaxMetaspaceSize=512m\nandroid.useAndroidX=true\nhermesEnabled=true",
        ),
        ed(f"{CWD}/android/gradle.properties", "-Xmx2048m", "-Xmx6g"),
        sh(
            "cd android && ./gradlew bundleRelease",
            "> Task :app:minifyReleaseWithR8\n> Task :app:signReleaseBundle FAILED\nExecution failed for task ':app:signReleaseBundle'.\n> A failure occurred while executing com.android.build.gradle.internal.tasks.FinalizeBundleTask$BundleToolRunnable\n   > java.io.IOException: Keystore was tampered with, or password was incorrect\nBUILD FAILED in 8m 15s",
            code=1,
            ms=495_000,
        ),
        todo(*plan("completed", "completed", "in_progress", "pending", "pending")),
    ),
    a(
        "Signing fails: keystore password. The password comes from FIELDNOTES_UPLOAD_STORE_PASSWORD; checking it is set.",
        sh("env | grep -c FIELDNOTES_UPLOAD", "2"),
        sh(
            'keytool -list -keystore android/app/upload.keystore -storepass "$FIELDNOTES_UPLOAD_STORE_PASSWORD" | head -3',
            "keytool error: java.io.IOException: Keystore was tampered with, or password was incorrect",
            code=1,
        ),
    ),
    a(
        "The keystore in the repo doesn't open with the env password. Trying the CI fastlane lane instead, which pulls the keystore from match.",
        hang(
            "bundle exec fastlane android build_release",
            "[08:41:12]: fetching keystore from git@github.com:fieldnotes/certs.git\n[08:41:13]: Cloning into '/tmp/d20261102-8812'...\n",
        ),
    ),
    a(
        "That also stalled for 10 minutes cloning the certs repo, with no error.\n\n"
        "Where things stand on Android:\n- R8 missing class: fixed with a dontwarn rule\n- R8 OOM: fixed with -Xmx6g\n"
        "- signing: FAILED — the repo keystore rejects the password in the environment\n"
        "- fastlane lane: timed out cloning the certs repo, inconclusive\n\n"
        "I don't have a clear next step for signing yet.",
        todo(
            ("Android release build (AAB)", "in_progress"),
            ("Signing: repo keystore password", "FAILED"),
            ("fastlane build_release", "timed out"),
        ),
    ),
    # Delegation after a dead end: three failures, a hang, no next step; the person says only "…".
    H("…", expect=("delegation_after_dead_end", "ack")),
    a(
        "## Status\n\n**Goal:** 4.12.0 on Play internal + TestFlight.\n\n**Done:** versions bumped (41200 / 1287), CHANGELOG and 6 locale notes.\n\n"
        "**Blocked:** Android signing. R8 issues are fixed; `signReleaseBundle` fails with `Keystore was tampered with, or password was incorrect`; the fastlane lane hung cloning certs.\n\n"
        "**Hypotheses:**\n1. `upload.keystore` in the repo is stale (rotated at some point), so the password is right for a different file.\n"
        "2. The certs clone hangs on an SSH host-key prompt.\n\n**Next:** check when the keystore changed, then the SSH prompt.",
        think="The person didn't say anything; I should take it from here and test the two hypotheses myself.",
    ),
    a(
        "",
        sh(
            "git log --format='%h %ad %s' --date=short -- android/app/upload.keystore",
            "3f9a2c1 2024-02-11 add upload keystore",
        ),
        sh(
            "git -C ~/.fastlane/certs log -1 --format='%h %ad %s' --date=short 2>&1 || true",
            "fatal: cannot change to '/home/dev/.fastlane/certs': No such file or directory",
        ),
        sh(
            "timeout 20 ssh -o BatchMode=yes -T git@github.com 2>&1",
            "Host key verification failed.",
            code=255,
        ),
    ),
    a(
        "Hypothesis 2 confirmed: host key verification fails in batch mode, so the clone waited forever. Adding GitHub's host key and retrying the lane.",
        sh(
            "ssh-keyscan -t ed25519 github.com >> ~/.ssh/known_hosts 2>/dev/null; timeout 20 ssh -T git@github.com 2>&1",
            "Hi fieldnotes-ci! You've successfully authenticated, but GitHub does not provide shell access.",
            code=1,
        ),
        sh(
            "bundle exec fastlane android build_release",
            "[08:58:40]: fetching keystore from git@github.com:fieldnotes/certs.git\n[08:58:44]: Decrypting upload.keystore (rotated 2025-06-30)\n[09:07:02]: BUILD SUCCESSFUL in 8m 18s\n[09:07:02]: AAB: android/app/build/outputs/bundle/release/app-release.aab (38.2 MB)",
            ms=502_000,
        ),
    ),
    a(
        "Android AAB built and signed with the rotated key (38.2 MB). The repo keystore is the pre-rotation one; I'll note that rather than delete it.",
        ed(
            f"{CWD}/android/README.md",
            "## Signing",
            "## Signing\n\nThe upload key was rotated on 2025-06-30. `app/upload.keystore` is the old key; release builds must go through `fastlane android build_release`, which fetches the current one from match.",
        ),
        todo(*plan("completed", "completed", "completed", "in_progress", "pending")),
    ),
    # Deliberate negative: a command wrapper (/cost) and its output; the person typed a command, not a silence.
    Meta(
        "<command-name>/cost</command-name>\n            <command-message>cost</command-message>\n            <command-args></command-args>"
    ),
    Meta(
        "<local-command-stdout>Total cost: $4.18\nTotal duration (API): 11m 02s\nTotal duration (wall): 1h 14m</local-command-stdout>"
    ),
    # Milestone after the long signing fight (Android AAB built); "." and the agent moves to iOS unprompted.
    H(".", expect=("continue_after_milestone", "ack")),
    a(
        "Android is done. Moving on to iOS: building the IPA via fastlane gym.",
        sh(
            "bundle exec fastlane ios build_release",
            "[09:21:10]: ▸ Compiling FieldNotes\n[09:34:55]: ▸ Archive Succeeded\n[09:35:40]: Successfully exported and signed the ipa file:\n[09:35:40]: ios/build/FieldNotes.ipa (61.7 MB)",
            ms=870_000,
        ),
    ),
    a(
        "Checking the archive for the right version and the bitcode-free build.",
        sh(
            "unzip -p ios/build/FieldNotes.ipa 'Payload/FieldNotes.app/Info.plist' | plutil -extract CFBundleShortVersionString raw -",
            "4.12.0",
        ),
        sh(
            "unzip -p ios/build/FieldNotes.ipa 'Payload/FieldNotes.app/Info.plist' | plutil -extract CFBundleVersion raw -",
            "1287",
        ),
    ),
    a(
        "Uploading Android to the internal track.",
        sh(
            "bundle exec fastlane android upload_internal",
            "[09:41:02]: Uploading AAB to Google Play (38.2 MB)\n[09:42:31]: Successfully uploaded to track 'internal' as version code 41200\n[09:42:31]: fastlane.tools finished successfully 🎉",
        ),
    ),
    # Interrupt, then a directed message: not silent.
    a(
        "Uploading iOS to TestFlight with external testers enabled.",
        sh(
            "bundle exec fastlane ios upload_testflight distribute_external:true",
            "[09:44:10]: Uploading FieldNotes.ipa (61.7 MB) to App Store Connect",
        ),
    ),
    Interrupt(),
    H("no external testers yet, internal only"),
    a(
        "Understood — internal testers only.",
        sh(
            "bundle exec fastlane ios upload_testflight distribute_external:false",
            "[09:52:48]: Successfully uploaded package to App Store Connect\n[10:04:15]: Build 4.12.0 (1287) processed\n[10:04:16]: Distributed to group 'Internal QA' (14 testers)",
        ),
        todo(*plan("completed", "completed", "completed", "completed", "completed")),
    ),
    a(
        "Tagging the release.",
        sh(
            "git tag -a v4.12.0 -m 'Release 4.12.0 (41200 / 1287)' && git push origin v4.12.0",
            "To github.com:fieldnotes/fieldnotes-app.git\n * [new tag]         v4.12.0 -> v4.12.0",
        ),
    ),
    a(
        "4.12.0 is out on both internal tracks:\n\n| platform | build | size | track |\n|---|---|---|---|\n| Android | 41200 | 38.2 MB | Play internal |\n| iOS | 1287 | 61.7 MB | TestFlight, Internal QA (14) |\n\n"
        "Android signing now goes only through fastlane match (documented in android/README.md). Tag v4.12.0 pushed."
    ),
    # Deliberate negative: "thanks" at the very end of the work; nothing follows but a pleasantry.
    H("thanks"),
    a("You're welcome — ping me when QA signs off and I can prepare the production rollout."),
]

# The 41xx-era Sentry release wiring is routine follow-up work from here on.
steps += [
    H("while we wait for QA: upload the source maps and dSYMs to Sentry for 4.12.0"),
    a(
        "Checking the Sentry CLI is authenticated for the fieldnotes org.",
        sh(
            "npx sentry-cli info",
            "Sentry Server: https://sentry.io\nDefault Organization: fieldnotes\nDefault Project: mobile\nAuthentication Info:\n  Method: Auth Token\n  Scopes: project:releases, org:read",
        ),
    ),
    a(
        "Uploading JS source maps for both bundles.",
        sh(
            "npx sentry-cli releases new fieldnotes@4.12.0+41200",
            "Created release fieldnotes@4.12.0+41200",
        ),
        sh(
            "npx sentry-cli sourcemaps upload --release fieldnotes@4.12.0+41200 android/app/build/generated/sourcemaps/react/release",
            "> Found 2 files\n> Uploaded 2 files (4.1 MB)",
        ),
    ),
    a(
        "Uploading the iOS dSYMs.",
        sh(
            "npx sentry-cli debug-files upload --include-sources ios/build/FieldNotes.app.dSYM.zip",
            "> Found 31 debug information files\n> Uploaded 31 missing debug information files\n> File upload complete",
        ),
    ),
    a(
        "Finalizing the release in Sentry.",
        sh(
            "npx sentry-cli releases finalize fieldnotes@4.12.0+41200",
            "Finalized release fieldnotes@4.12.0+41200",
        ),
    ),
    a(
        "Source maps (2 files, 4.1 MB) and 31 dSYMs uploaded; release fieldnotes@4.12.0+41200 finalized."
    ),
    # Deliberate negative: an emoji ack at the very end; nothing changes afterwards.
    H("👍"),
    a("👍"),
]

SCENARIOS = [
    Scenario(
        name="h2_mobile_release",
        title="Cut the 4.12.0 mobile release",
        cwd=CWD,
        steps=steps,
        start="2026-11-02T08:05:00Z",
    )
]
FORMATS = ["claude", "opencode", "codex"]
