"""Tags of the game page that print what the presenters made ready (see ``games.presenters``)."""

from django import template

from games.presenters import dice

register = template.Library()


@register.simple_tag(takes_context=True)
def dice_items(context) -> str:
    """The five dice as list items; the player's own are forms carrying the page's CSRF token."""
    return dice.dice_items(context)
