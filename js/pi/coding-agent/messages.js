// pi's own message kinds (bash runs, branch and compaction summaries, custom
// messages) and how they reach a model: as user messages whose text says
// what they are.

const COMPACTION_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
const BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const BRANCH_SUMMARY_SUFFIX = "</summary>";

// Session entries carry ISO timestamps, messages carry epoch milliseconds;
// anything Date cannot read becomes NaN, as in pi.
const epochMillis = (timestamp) => new Date(timestamp).getTime();

export function createBranchSummaryMessage(summary, fromId, timestamp) {
  return { role: "branchSummary", summary, fromId, timestamp: epochMillis(timestamp) };
}

export function createCompactionSummaryMessage(summary, tokensBefore, timestamp) {
  return { role: "compactionSummary", summary, tokensBefore, timestamp: epochMillis(timestamp) };
}

export function createCustomMessage(customType, content, display, details, timestamp) {
  return { role: "custom", customType, content, display, details, timestamp: epochMillis(timestamp) };
}

function bashExecutionText(message) {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

function userText(text, timestamp) {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** pi's own message kinds (bash runs, summaries, custom) as the user messages a model reads. */
export function convertToLlm(messages) {
  const converted = [];
  for (const message of messages) {
    switch (message.role) {
      case "bashExecution":
        if (!message.excludeFromContext) converted.push(userText(bashExecutionText(message), message.timestamp));
        break;
      case "custom": {
        const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
        converted.push({ role: "user", content, timestamp: message.timestamp });
        break;
      }
      case "branchSummary":
        converted.push(userText(BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX, message.timestamp));
        break;
      case "compactionSummary":
        converted.push(userText(COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX, message.timestamp));
        break;
      case "system":
      case "user":
      case "assistant":
      case "toolResult":
        converted.push(message);
        break;
      default:
        break;
    }
  }
  return converted;
}
