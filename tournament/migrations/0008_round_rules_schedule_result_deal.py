# Rounds keep their own rules; stages their schedule; results the deal they were played on.

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Q

RULE_FIELDS = (
    "hands_per_match", "knock_limit", "knock_bonus", "gin_bonus", "undercut_bonus",
    "big_gin_bonus", "draw_rule", "match_points_win", "match_points_tie",
    "match_points_loss", "match_points_bye", "small_points_bye",
    "match_points_forfeit_win", "match_points_forfeit_loss", "small_points_forfeit",
    "deal_scope", "knockout_tiebreak_hands", "lateness_limit_minutes",
)


def _settings(tournament, hands_per_match):
    """What the round was played under: the tournament's settings today (they were read
    live until now), with the hands per match the round itself kept."""
    values = {name: getattr(tournament, name) for name in RULE_FIELDS}
    values["hands_per_match"] = hands_per_match
    values["tiebreaks"] = [key.strip() for key in tournament.tiebreak_order.split(",")
                           if key.strip()]
    return values


def freeze_round_rules(apps, schema_editor):
    Round = apps.get_model("tournament", "Round")
    HistoricalRound = apps.get_model("tournament", "HistoricalRound")
    Tournament = apps.get_model("tournament", "Tournament")
    tournaments = {t.pk: t for t in Tournament.objects.all()}
    for round_ in Round.objects.select_related("stage"):
        round_.rule_settings = _settings(tournaments[round_.stage.tournament_id],
                                         round_.hands_per_match)
        round_.save(update_fields=["rule_settings"])
    Stage = apps.get_model("tournament", "Stage")
    stage_tournament = dict(Stage.objects.values_list("pk", "tournament_id"))
    for record in HistoricalRound.objects.all():
        tournament = tournaments.get(stage_tournament.get(record.stage_id))
        if tournament is not None:
            record.rule_settings = _settings(tournament, record.hands_per_match)
        else:  # the stage is gone; keep what is known
            record.rule_settings = {"hands_per_match": record.hands_per_match}
        record.save(update_fields=["rule_settings"])


def results_to_their_deal(apps, schema_editor):
    """Each result gets the deal that was current at its table's set and hand when it was
    entered (a reserve deal replaces one from its creation on)."""
    HandResult = apps.get_model("tournament", "HandResult")
    Deal = apps.get_model("tournament", "Deal")
    results = HandResult.objects.select_related("table__match__round__stage__tournament")
    for result in results.iterator():
        match = result.table.match
        per_match = match.round.stage.tournament.deal_scope == "match"
        deal = (Deal.objects.filter(round_id=match.round_id, hand=result.hand,
                                    deal_set=match.number if per_match else 1,
                                    created_at__lte=result.entered_at)
                .filter(Q(replaced_at__isnull=True) | Q(replaced_at__gt=result.entered_at))
                .order_by("-reserve").first())
        if deal is not None:
            result.deal = deal
            result.save(update_fields=["deal"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0007_keys_pin_locks_box_conflicts'),
    ]

    operations = [
        migrations.AddField(
            model_name='round',
            name='rule_settings',
            field=models.JSONField(null=True, verbose_name='rules of the round'),
        ),
        migrations.AddField(
            model_name='historicalround',
            name='rule_settings',
            field=models.JSONField(null=True, verbose_name='rules of the round'),
        ),
        migrations.RunPython(freeze_round_rules, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='round',
            name='rule_settings',
            field=models.JSONField(verbose_name='rules of the round'),
        ),
        migrations.AlterField(
            model_name='historicalround',
            name='rule_settings',
            field=models.JSONField(verbose_name='rules of the round'),
        ),
        migrations.RemoveConstraint(
            model_name='round',
            name='round_hands_range',
        ),
        migrations.RemoveField(
            model_name='historicalround',
            name='hands_per_match',
        ),
        migrations.RemoveField(
            model_name='round',
            name='hands_per_match',
        ),
        migrations.AddField(
            model_name='historicalstage',
            name='schedule',
            field=models.JSONField(blank=True, null=True, verbose_name='schedule'),
        ),
        migrations.AddField(
            model_name='stage',
            name='schedule',
            field=models.JSONField(blank=True, null=True, verbose_name='schedule'),
        ),
        migrations.AddField(
            model_name='handresult',
            name='deal',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='results', to='tournament.deal'),
        ),
        migrations.RunPython(results_to_their_deal, migrations.RunPython.noop),
    ]
