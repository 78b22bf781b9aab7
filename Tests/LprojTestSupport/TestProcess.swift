import CTestProcess

/// Whether the test process ignores SIGPIPE, as `CTestProcess` sets it up
/// before any test runs.
package var testProcessIgnoresSIGPIPE: Bool { lproj_test_process_ignores_sigpipe() != 0 }
