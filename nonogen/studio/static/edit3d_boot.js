/* The 3D editor's frame, before its module: the box it shows comes from the studio's page (same origin), and
 * the play page's view (play3d_view.js) reads it as window.nonogenPage.puzzle when the module starts. Only the
 * box's size is fixed for the frame's life: a new box loads the frame again. */
"use strict";

window.nonogenPage = {
  puzzle: window.parent.StudioLevel.frameBox(),
  say: (text) => window.parent.say(text),
};
