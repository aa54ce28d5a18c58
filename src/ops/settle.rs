//! Where a call into the isolate that answered with a promise gets its
//! outcome (js/runtime/call-settlement.js): the promise's settlement calls
//! `op_pihost_call_settled` with the call's number. deno_core's own way,
//! watching the promise, makes two native functions per call, and the
//! engine's table of native functions breaks after some tens of thousands
//! (docs/engine-notes.md, note 45).

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use deno_core::error::JsError;
use deno_core::{OpState, op2, v8};

type Outcome = Result<v8::Global<v8::Value>, Box<JsError>>;

/// One pending call's outcome, once its promise settled, and who waits for it.
#[derive(Default)]
pub(crate) struct CallSlot {
    outcome: RefCell<Option<Outcome>>,
    waker: RefCell<Option<Waker>>,
}

/// The calls whose promises have not settled yet, by number.
#[derive(Default)]
pub(crate) struct PendingCalls(pub(crate) HashMap<u32, Rc<CallSlot>>);

/// Settles when the op reports the call's outcome (as the event loop runs).
pub(crate) struct SettlingCall(pub(crate) Rc<CallSlot>);

impl Future for SettlingCall {
    type Output = Outcome;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Outcome> {
        if let Some(outcome) = self.0.outcome.borrow_mut().take() {
            return Poll::Ready(outcome);
        }
        *self.0.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// A call's promise settled: fulfilled with `value`, or rejected with it (an
/// error as deno_core would have made it, "in promise"). A number nobody
/// waits for (a synchronous bookkeeping call's) is ignored. The op state is
/// borrowed only to take the slot: making the error reads its stack, and the
/// engine's stack formatting borrows the op state too.
#[op2(fast)]
pub fn op_pihost_call_settled<'s>(
    state: Rc<RefCell<OpState>>,
    scope: &mut v8::PinScope<'s, '_>,
    #[smi] id: u32,
    fulfilled: bool,
    value: v8::Local<'s, v8::Value>,
) {
    let Some(slot) = state.borrow_mut().borrow_mut::<PendingCalls>().0.remove(&id) else {
        return;
    };
    let outcome = if fulfilled {
        Ok(v8::Global::new(scope, value))
    } else {
        Err(deno_core::error::exception_to_err(scope, value, true, true))
    };
    *slot.outcome.borrow_mut() = Some(outcome);
    if let Some(waker) = slot.waker.borrow_mut().take() {
        waker.wake();
    }
}
