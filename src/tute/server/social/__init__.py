"""Between people: friends, invitations, chat, its filter and moderation."""
