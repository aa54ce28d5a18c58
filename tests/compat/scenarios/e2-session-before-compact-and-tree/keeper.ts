// Results for compaction and tree navigation.
export default function (pi: any) {
  const g = globalThis as any;
  const ran: string[] = [];
  pi.on("session_before_compact", () => {
    ran.push("compact 1");
    return { compaction: { summary: "short summary", firstKeptEntryId: "e9", tokensBefore: 5000 } };
  });
  pi.on("session_before_compact", () => {
    ran.push("compact 2");
    return { cancel: false };
  });
  pi.on("session_before_tree", () => {
    ran.push("tree 1");
    return { summary: { summary: "branch summary" } };
  });
  pi.on("session_before_tree", () => {
    ran.push("tree 2");
    return { cancel: "truthy but not true" };
  });
  pi.on("session_before_tree", () => {
    ran.push("tree 3 should not run");
  });
  g.keeperRan = () => ran.splice(0);
}
