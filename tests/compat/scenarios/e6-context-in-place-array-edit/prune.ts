// Removes the first exchange by splicing the array it was given; returns nothing.
export default function (pi: any) {
  pi.on("context", (event: any) => {
    event.messages.splice(0, 2);
  });
}
