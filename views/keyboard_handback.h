#pragma once
// A dialog over a window gives the keyboard back to that window once it is hidden: when it is
// hidden while active (accepted, cancelled, its run landed), and when its activation arrives
// only after it was hidden (a dialog shown and hidden at once). Without it the hidden dialog can
// stay the focus window (the offscreen platform, some window managers) and Esc or any other
// shortcut pressed next reaches nothing. One owner for every such dialog (compare, what-if).
class QWidget;

namespace fabscope {

// `dialog`'s parent widget's window gets the keyboard back; the filter lives as long as `dialog`.
void handKeyboardBackWhenHidden(QWidget* dialog);

} // namespace fabscope
