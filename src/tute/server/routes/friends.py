"""Friends and invitations over HTTP (``/api/friends...``, ``/api/tables/{id}/invite``
and ``/link``); who may sit at a private table is :class:`~tute.server.routes.doors.Social`'s
to say.  A refusal is the site's typed error (the app's one handler)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from tute.core.errors import TuteError
from tute.server.routes.common import Site, run
from tute.server.routes.doors import Social
from tute.server.site.accounts import Account
from tute.server.social.friends import FriendError
from tute.server.wire.answers import Sent
from tute.server.wire.protocol import Empty, FriendAnswer, FriendName, Invite, decode_body


def routes(site: Site, social: Social) -> list[BaseRoute]:
    friends = social.friends

    async def me(request: Request) -> Account:
        person = await run(lambda: site.account(request))
        if person is None:
            raise TuteError("not_logged_in")
        return person

    async def list_friends(request: Request) -> Sent:
        mine = await me(request)
        found = await run(lambda: friends.of(mine.id))
        for f in found.friends:
            f.online = social.presence.online(f.id)
            f.table = social.where(f.id)
        return Sent(found)

    async def ask(request: Request) -> Sent:
        mine = await me(request)
        data = decode_body(FriendName, await request.body())
        state, other = await run(lambda: friends.request(mine.id, data.name))
        social.notify(other, "friend_request" if state == "pending" else "friend_accepted",
                      mine)
        return Sent({"state": state})

    async def answer(request: Request) -> Sent:
        mine = await me(request)
        data = decode_body(FriendAnswer, await request.body())
        await run(lambda: friends.answer(mine.id, data.id, data.accept))
        if data.accept:
            social.notify(data.id, "friend_accepted", mine)
        return Sent({"ok": True})

    async def remove(request: Request) -> Sent:
        mine = await me(request)
        data = decode_body(FriendAnswer, await request.body())
        await run(lambda: friends.remove(mine.id, data.id))
        return Sent({"ok": True})

    async def invite(request: Request) -> Sent:
        """The host invites a friend: the table keeps it, the friend is told."""
        mine = await me(request)
        data = decode_body(Invite, await request.body())
        table = social.lobby.get(request.path_params["table_id"])
        if not await run(lambda: friends.are_friends(mine.id, data.friend)):
            raise FriendError("not_friends")
        found = await run(lambda: friends.of(mine.id))
        name = next(f.name for f in found.friends if f.id == data.friend)
        await table.invite(await run(lambda: site.who(request)) or "", data.friend, name)
        social.notify(data.friend, "invite", mine, table=table.id, variant=str(table.variant))
        return Sent({"table": table.summary()})

    async def link(request: Request) -> Sent:
        """The host's link that seats its holder (signed, for a day, this table only)."""
        decode_body(Empty, await request.body())
        table = social.lobby.get(request.path_params["table_id"])
        table.check_host(await run(lambda: site.who(request)))
        token = social.invites.token(table.id)
        return Sent({"token": token, "path": f"/?invite={token}"})

    return [
        Route("/api/friends", list_friends, methods=["GET"]),
        Route("/api/friends", ask, methods=["POST"]),
        Route("/api/friends/answer", answer, methods=["POST"]),
        Route("/api/friends/remove", remove, methods=["POST"]),
        Route("/api/tables/{table_id}/invite", invite, methods=["POST"]),
        Route("/api/tables/{table_id}/link", link, methods=["POST"]),
    ]
