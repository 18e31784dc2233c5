/**
 * chime: a Deno-native chat-agent host with durable, session-local reminders.
 * This root module re-exports the public API of every workspace member.
 *
 * @module
 */
export * from "@chime/session";
