//! Nothing runs without bound: receipts, inputs, sums.

use idem::sim::{Message, Move, Payment, Setup, Strategy, World};

fn world() -> World {
    let setup = Setup {
        consumers: vec!["A".into(), "B".into()],
        messages: vec![Message {
            id: "m-7f3".into(),
            payment: Payment {
                order: 1042,
                amount: 40,
            },
            status: None,
        }],
        ..Setup::default()
    };
    World::new(setup, Strategy::naive(), 3).unwrap()
}

fn step(world: &mut World, consumer: &str) {
    world
        .apply(&Move::Step {
            consumer: consumer.into(),
        })
        .unwrap();
}

fn receipt(world: &World, i: usize) -> String {
    world.consumers()[i]
        .delivery
        .as_ref()
        .unwrap()
        .receipt
        .clone()
}

#[test]
fn an_empty_poll_mints_no_receipt() {
    let expire = Move::ExpireLease {
        message: "m-7f3".into(),
    };
    let mut quiet = world();
    step(&mut quiet, "A");
    quiet.apply(&expire).unwrap();
    step(&mut quiet, "B");

    let mut polled = world();
    step(&mut polled, "A");
    // Each poll takes a step of virtual time; the lease lasts 30 of them.
    for _ in 0..20 {
        step(&mut polled, "B");
        assert!(polled.consumers()[1].delivery.is_none(), "nothing to get");
    }
    polled.apply(&expire).unwrap();
    step(&mut polled, "B");
    assert_eq!(receipt(&polled, 0), receipt(&quiet, 0));
    assert_eq!(
        receipt(&polled, 1),
        receipt(&quiet, 1),
        "twenty empty polls drew no receipt"
    );
}
