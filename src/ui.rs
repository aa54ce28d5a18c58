//! Extension components that pihost draws itself. With a screen attached
//! ([`Pihost::attach_terminal`](crate::Pihost::attach_terminal)) the
//! extensions run as under pi's interactive mode (`ctx.mode` is `"tui"`):
//! `ctx.ui.custom(factory)` builds the extension's own pi-tui component in
//! the isolate, renders it at the screen's width into [`Frame`]s, and takes
//! keys ([`Pihost::send_key`](crate::Pihost::send_key),
//! [`Pihost::send_key_to`](crate::Pihost::send_key_to)) until the component
//! calls `done(result)`, which settles the extension's promise and disposes
//! the component. Widgets, the header and the footer (`ctx.ui.setWidget`,
//! `setHeader`, `setFooter`) and the extension's editor
//! (`ctx.ui.setEditorComponent`, whose submitted text comes to the host as
//! `HostNotification::UiEditorSubmit`) are drawn into the same frames. The frames wait
//! for [`Pihost::take_frames`](crate::Pihost::take_frames), or, with
//! [`FrameDelivery::Push`], go to the bound `Host` as
//! `HostNotification::UiFrame`s
//! while they are drawn. The component's life lives in `js/runtime/ui/`.

use serde::{Deserialize, Serialize};

/// The size of the screen extension components are drawn for, in terminal cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TerminalSize {
    /// The width every component renders at (`tui.terminal.columns`).
    pub columns: u16,
    /// The height (`tui.terminal.rows`); overlays' percentages are of it.
    pub rows: u16,
}

/// What a component is, which says where a host draws it. Top to bottom
/// as pi lays out its screen: header, widgets above the editor, a custom
/// component in the editor's place (else the extension's editor), widgets
/// below it, footer; overlays go over the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum FrameKind {
    /// A `ctx.ui.custom` component, shown in place of the editor; it takes keys.
    Custom,
    /// A `ctx.ui.custom(…, { overlay: true })` component, or one its code
    /// showed with `tui.showOverlay`, drawn over the rest at its own width.
    Overlay,
    /// A `ctx.ui.setWidget` widget; never takes keys.
    Widget,
    /// The `ctx.ui.setHeader` component.
    Header,
    /// The `ctx.ui.setFooter` component.
    Footer,
    /// The `ctx.ui.setEditorComponent` editor: in the editor's place below
    /// the widgets above it, unless a custom component covers it (then it
    /// is `hidden`, and draws anew when the last one goes); it takes keys
    /// whenever no custom component or overlay has focus. Its submitted
    /// text reaches the host as `ui.editorSubmit`.
    Editor,
}

/// What a shown component drew: one render that differs from its last (or
/// any render after a resize). A component's first frame is how a host
/// learns it opened; its `closed` frame, that it is gone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    /// The component's id, the same for every frame it draws.
    pub component: u64,
    /// The extension that showed it.
    pub extension: String,
    /// Where it goes on the screen.
    pub kind: FrameKind,
    /// The key of the widget (`ctx.ui.setWidget(key, …)`) this frame is of;
    /// widgets are always drawn and never take keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widget: Option<String>,
    /// Where a widget goes: `aboveEditor` (pi's default) or `belowEditor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<String>,
    /// What it drew is gone for good (done, closed, replaced, a reload);
    /// `lines` is empty.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
    /// It is not drawn for now: an overlay hidden (`setHidden(true)`), or a
    /// custom component a newer one covers (pi draws only the newest in the
    /// editor's place); `lines` is empty, and shown again it draws anew. A
    /// hidden component still gets its `closed` frame when it goes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// Its lines, ANSI styling kept as pi-tui renders it; no line is wider
    /// than the width it was drawn for.
    pub lines: Vec<String>,
}

/// How the frames of an attached screen reach the embedder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrameDelivery {
    /// They wait until [`Pihost::take_frames`](crate::Pihost::take_frames)
    /// takes them: a front end that drives the components itself and reads
    /// what they drew when it likes (the CLI's `--keys`).
    #[default]
    Pull,
    /// Each goes to the bound host's `Host::notify`
    /// as a `HostNotification::UiFrame`
    /// the moment it is drawn, in the order drawn (at most one per component
    /// per render; renders are coalesced to one per event-loop turn, and a
    /// key draws at once). Nothing is kept for `take_frames`.
    Push,
}

/// The component that has focus on the screen: keys go to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FocusedComponent {
    /// Its id, as its frames carry it.
    pub component: u64,
    /// What it is: a `custom` component, an `overlay` or the extension's `editor`.
    pub kind: FrameKind,
}
