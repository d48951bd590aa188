//! `station replay --clock`: time given to a side beyond the time control is
//! counted as an adjustment on the summary line, not as a clock mismatch.

use std::process::Command;

const GIFT: &str = r#"[Event "Casual"]
[Site "?"]
[Date "2026.11.24"]
[Round "-"]
[White "A"]
[Black "B"]
[Result "*"]
[TimeControl "60+0"]

1. e4 { [%clk 0:00:58] } 1... e5 { [%clk 0:00:57] } 2. Nf3 { [%clk 0:00:55] } 2... Nc6 { [%clk 0:00:54] }
3. Bb5 { [%clk 0:02:50] } 3... a6 { [%clk 0:00:50] } 4. Ba4 { [%clk 0:02:47] } *
"#;

#[test]
fn a_gift_of_time_is_one_clock_adjustment_and_no_mismatch() {
    let dir = std::env::temp_dir().join(format!("station-clock-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("gift.pgn");
    std::fs::write(&pgn, GIFT).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_station"))
        .args(["replay", "--clock", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("games 1 plies 7 "), "{stdout}");
    assert!(stdout.trim_end().ends_with("clock_mismatches 0 clock_adjustments 1"), "{stdout}");
}
