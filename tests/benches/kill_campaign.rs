//! Issue 32's kill campaign, whole (`cargo bench -p station-tests --bench
//! kill_campaign`; about 10 minutes on 2 cores): `station run` killed (-9) at
//! least `KILLS` (100 unless said) times at random moments of real games, half
//! of them with noisy hands, and started again each time. Its figures (moves
//! lost, decided twice, decided but never said, events never delivered …) are
//! `figure<TAB>name<TAB>value<TAB>unit` lines on stdout; it exits non-zero
//! when one of those four is not 0. The campaign itself lives with its
//! `cargo test` share in `tests/e2e/kill_campaign.rs`, included here.

// The end-to-end module, for its campaign: its tests are not compiled here,
// so most helpers go unused.
#[allow(dead_code, unused_imports)]
#[path = "../tests/e2e/kill_campaign.rs"]
mod kill_campaign;

fn main() {
    // The station binary the campaign runs, built as the tests build it.
    let _ = station_tests::station_bin();
    kill_campaign::full();
}
