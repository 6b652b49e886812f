"""Between people: friends, invitations and private tables, chat, its filter and moderation."""
