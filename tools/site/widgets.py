"""Widgets on a static page: the widget view is dropped, what it showed stays.

A headless run stores each widget's model in the notebook's metadata. What a callback drew when the widget was
made (an `interactive_output` slider's first figure) is in the cell's own outputs when the client left Output
widgets to the kernel (tools/site runs chapters so), or in the Output widget's state when the client acted as
its front end. `still_outputs` turns one widget-view output into ordinary outputs: one line naming the controls
(sliders, dropdowns, ...) and the values the figures were drawn at, what its Output widgets hold, and a
progress bar (tqdm) as a static <progress> with its labels. No script runs on the page and nothing looks like a
control that does not respond.
"""
import html
import re

import nbformat

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
REFERENCE = re.compile(r"^IPY_MODEL_([0-9a-f]+)$")
PROGRESS = {"FloatProgressModel", "IntProgressModel"}
TEXTS = {"HTMLModel", "LabelModel", "HTMLMathModel"}
# Controls, the models a reader would move or pick from: those with a description and a value (or a selected
# index), less the displays of text and progress.
NOT_CONTROLS = PROGRESS | TEXTS | {"OutputModel"}


def is_widget_view(output) -> bool:
    return VIEW in output.get("data", {})


def widget_models(nb) -> dict:
    """model id -> {"model_name", "state", ...} from the notebook's stored widget state (empty if none)."""
    return nb.metadata.get("widgets", {}).get(STATE, {}).get("state", {})


def _children(state):
    """Ids of the models a model's state refers to, in order (children, layout, style, ...)."""
    def walk(value):
        if isinstance(value, str):
            match = REFERENCE.match(value)
            if match:
                yield match.group(1)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
    return list(walk(state))


def _tree(model_id, models, seen=None):
    """The models of the tree under `model_id`, depth first, each once."""
    seen = set() if seen is None else seen
    if model_id in seen or model_id not in models:
        return []
    seen.add(model_id)
    model = models[model_id]
    found = [model]
    for child in _children(model.get("state", {})):
        found += _tree(child, models, seen)
    return found


def _shown_value(state):
    labels = state.get("_options_labels")
    if labels is not None and isinstance(state.get("index"), int):
        return labels[state["index"]]
    value = state.get("value")
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def _plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]*>", "", markup or "")).strip()


def _progress_output(texts_before, bar, texts_after):
    value, top = float(bar.get("value", 0)), float(bar.get("max", 1) or 1)
    before, after = " ".join(texts_before), " ".join(texts_after)
    markup = (f'<div class="fbf-progress">{html.escape(before)} '
              f'<progress value="{value:g}" max="{top:g}"></progress> {html.escape(after)}</div>')
    plain = f"{before} [{value:g}/{top:g}] {after}".strip()
    return nbformat.v4.new_output("display_data", data={"text/html": markup, "text/plain": plain})


def _controls_output(controls):
    settings = ", ".join(f"{c.get('description') or 'value'} = {_shown_value(c)}" for c in controls)
    sentence = f"Interactive in the notebook (Colab, JupyterLab); on this page, drawn at {settings}."
    return nbformat.v4.new_output("display_data", data={
        "text/html": f'<p class="fbf-widget-note">{html.escape(sentence)}</p>', "text/plain": sentence})


def controls(output, models: dict) -> list:
    """The states of the controls (sliders, dropdowns, ...) in the tree of the widget-view `output`."""
    return [m["state"] for m in _tree(output["data"][VIEW].get("model_id"), models)
            if m.get("model_name") not in NOT_CONTROLS and "description" in m.get("state", {})
            and ({"value", "index"} & set(m["state"]))]


def still_outputs(output, models: dict) -> list:
    """The outputs that stand for the widget-view `output` on a static page (possibly none)."""
    found = controls(output, models)
    stills = [_controls_output(found)] if found else []
    texts, before, bar = [], [], None
    for model in _tree(output["data"][VIEW].get("model_id"), models):
        name, state = model.get("model_name"), model.get("state", {})
        if name in TEXTS and _plain(state.get("value")):
            texts.append(_plain(state["value"]))
        elif name in PROGRESS and bar is None:
            bar, before, texts = state, texts, []
        elif name == "OutputModel":
            stills += [nbformat.from_dict(o) for o in state.get("outputs", []) if o.get("output_type") != "error"]
    if bar is not None:
        stills.append(_progress_output(before, bar, texts))
    elif texts:
        stills.append(nbformat.v4.new_output("stream", name="stdout", text="\n".join(texts) + "\n"))
    return stills
