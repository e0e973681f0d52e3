//! Peers are scored as backends are (issue 36, item 1): a peer run its time limit stopped
//! without an answer is `timeout` and PAR-2 charges it twice the limit, including records
//! that peers.py wrote `unknown` before it wrote `timeout` (read so, the file unchanged).

use zeroone::backend::Status;
use zeroone::harness::record::read_records;
use zeroone::harness::stats::competition;
use zeroone::harness::{Record, Task};

const LIMIT: f64 = 10.0;

/// A run of `backend` (registry name `name`) on `instance` under the limit.
fn run(backend: &str, name: &str, instance: &str, status: Status, seconds: f64) -> Record {
    let mut r = Record::new(instance, backend, name, Task::Solve, 0);
    r.status = status;
    r.verified = status.is_answer() && status != Status::Infeasible;
    r.seconds = seconds;
    r.wall_seconds = Some(seconds + 0.01);
    r.options.time_limit = Some(LIMIT);
    r
}

/// A peer's `unknown` run as peers.py wrote it, with the solver's own words.
fn peer_unknown(instance: &str, seconds: f64, said: &str) -> Record {
    let mut r = run("highs", "peer", instance, Status::Unknown, seconds);
    r.version = None;
    r.commit = None;
    r.reason = Some(format!("highs stopped: {said}"));
    r
}

/// Ten instances: `sat` answers seven in 1 s and times out on three; the peer answers the same
/// seven in 0.5 s and stops at the limit on the three, recorded `unknown` (two with "Time limit
/// reached", one, as CP-SAT and CBC say it, only with its time at the limit). Read back from a
/// record file, the peer's three runs are `timeout`, each charged 2 x the limit, and the peer
/// ranks behind `sat` on PAR-2 as it must (before, it ranked first at 0.5 s).
#[test]
fn a_peer_stopped_by_the_time_limit_is_a_timeout_charged_twice_the_limit() {
    let mut records = Vec::new();
    for i in 0..10 {
        let instance = format!("m#{i}");
        if i < 7 {
            records.push(run("sat", "sat", &instance, Status::Solved, 1.0));
            records.push(run("highs", "peer", &instance, Status::Solved, 0.5));
        } else {
            records.push(run("sat", "sat", &instance, Status::Timeout, LIMIT));
            let said = if i < 9 {
                "Time limit reached"
            } else {
                "Not Solved"
            };
            let seconds = if i < 9 { 10.0057 } else { 10.05 };
            records.push(peer_unknown(&instance, seconds, said));
        }
    }
    // A peer `unknown` for another reason, well inside the limit, stays `unknown`.
    records.push(peer_unknown("m#10", 0.2, "MODEL_INVALID"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fair.jsonl");
    let text: String = records.iter().map(|r| r.to_line() + "\n").collect();
    std::fs::write(&path, text).unwrap();

    let (read, _) = read_records(&path, false).unwrap();
    let peer_statuses: Vec<Status> = read
        .iter()
        .filter(|r| r.backend == "highs" && !r.status.is_answer())
        .map(|r| r.status)
        .collect();
    assert_eq!(
        peer_statuses,
        [
            Status::Timeout,
            Status::Timeout,
            Status::Timeout,
            Status::Unknown
        ]
    );

    let refs: Vec<&Record> = read.iter().collect();
    let labels = ["sat".to_string(), "highs".to_string()];
    let rows = competition(&refs, &labels, Some("sat"), Some(LIMIT));
    let (sat, peer) = (&rows[0], &rows[1]);
    // sat: (7 x 1 + 3 x 20) / 10; the peer: (7 x 0.5 + 3 x 20) / 10, its `unknown` left out.
    assert_eq!(sat.par2, Some((7.0 * 1.0 + 3.0 * 2.0 * LIMIT) / 10.0));
    assert_eq!(peer.par2, Some((7.0 * 0.5 + 3.0 * 2.0 * LIMIT) / 10.0));
    assert_eq!((sat.answered, peer.answered), (7, 7));
    // An independent count: PAR-2 from the statuses alone.
    let by_hand = |label: &str| {
        let mine: Vec<&Record> = read.iter().filter(|r| r.backend == label).collect();
        let charged: Vec<f64> = mine
            .iter()
            .filter(|r| r.status != Status::Unknown)
            .map(|r| {
                if r.status.is_answer() {
                    r.seconds
                } else {
                    2.0 * LIMIT
                }
            })
            .collect();
        charged.iter().sum::<f64>() / charged.len() as f64
    };
    assert_eq!(peer.par2, Some(by_hand("highs")));
    assert_eq!(sat.par2, Some(by_hand("sat")));

    // The ranking when the peer is slower on its answers: 2 s each, so behind sat.
    let slower: Vec<Record> = read
        .iter()
        .cloned()
        .map(|mut r| {
            if r.backend == "highs" && r.status.is_answer() {
                r.seconds = 2.0;
            }
            r
        })
        .collect();
    let refs: Vec<&Record> = slower.iter().collect();
    let rows = competition(&refs, &labels, Some("sat"), Some(LIMIT));
    assert!(
        rows[1].par2 > rows[0].par2,
        "{:?} vs {:?}",
        rows[1].par2,
        rows[0].par2
    );
    // Without the charge (the old reading) the slower peer would have ranked first.
    assert!(2.0 < rows[0].par2.unwrap());
}

/// A backend's own `unknown` (zeroone wrote it, with its version) is never reinterpreted.
#[test]
fn a_backend_unknown_at_the_limit_is_left_as_recorded() {
    let mut r = run("sat", "sat", "m#0", Status::Unknown, 10.5);
    r.reason = Some("the time limit".into());
    assert!(!r.is_peer_limit_stop());
    assert_eq!(r.clone().migrated().status, Status::Unknown);
}
