#compdef places

__places_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__places_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __places_complete "${completions[@]:0:-1}"
    fi
}

__places_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_places() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'init:Create your identity (a keypair) and profile, and log in.'
            'login:Unlock your identity in the daemon so it signs and syncs again.'
            'logout:Wipe your key from the daemon'\''s memory.'
            'whoami:Show your id (the one friends add), name and username.'
            'status:Show the daemon'\''s state: version, identity, login, data dir.'
            'place:Add, list, show, edit and remove places in your library.'
            'favorite:Heart places and keep them in your own order.'
            'itinerary:Create, show, edit and delete itineraries and their places to go.'
            'activity:Show who changed what in an itinerary, newest first.'
            'events:Follow the daemon'\''s events (edits, logins, sync) until interrupted.'
            'route:Plan the best order through an itinerary'\''s places to go.'
            'peers:Daemons this one syncs with: who, where, and how far in sync.'
            'share:Make a share link for an itinerary (viewer or editor).'
            'join:Join an itinerary from a share link.'
            'members:List an itinerary'\''s members, how each joined, and its share links.'
            'unshare:Remove a member or revoke a share link (owner only).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        init|login|logout|whoami|status|place|favorite|itinerary|activity|events|route|peers|share|join|members|unshare|help)
            "_places_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_init() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--name[Your display name.]:name:'
        '--username[Your username (what friends see next to your id).]:username:'
        '--bio[A short bio.]:bio:'
        '--passphrase-file[Read the passphrase from the first line of this file.]:file:'
        '--no-passphrase[Store the key unsealed (headless devices).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_login() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--passphrase-file[Read the passphrase from the first line of this file.]:file:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_logout() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_whoami() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add a place to your library.'
            'list:List the places in your library.'
            'show:Show every field of a place.'
            'edit:Change some fields of a place.'
            'remove:Remove a place from your library.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|show|edit|remove)
            "_places_place_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_place_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':name:'
        '--lat[Latitude in decimal degrees (-90 to 90).]:lat:'
        '--lon[Longitude in decimal degrees (-180 to 180).]:lon:'
        '--address[Street address.]:address:'
        '*--category[A category (repeat for several), e.g. food, museum.]:category:'
        '--price[Price level from 1 (cheap) to 4 (expensive).]:1-4:'
        '--rating[Your rating from 0 to 5 (decimals allowed).]:0-5:'
        '--notes[Free-form notes.]:notes:'
        '--url[A web page for the place.]:url:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_edit() {
    local -i ret=1
    local -ar ___clear=('address' 'categories' 'price' 'rating' 'notes' 'url')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--name[New name.]:name:'
        '--lat[New latitude in decimal degrees.]:lat:'
        '--lon[New longitude in decimal degrees.]:lon:'
        '--address[Street address.]:address:'
        '*--category[A category (repeat for several), e.g. food, museum.]:category:'
        '--price[Price level from 1 (cheap) to 4 (expensive).]:1-4:'
        '--rating[Your rating from 0 to 5 (decimals allowed).]:0-5:'
        '--notes[Free-form notes.]:notes:'
        '--url[A web page for the place.]:url:'
        '*--clear[Clear this field (repeatable).]:field:{__places_complete "${___clear[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_place_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Heart a place (at the end, or at --position).'
            'list:List your favorites in order, with their count.'
            'move:Move a favorite to another position.'
            'remove:Un-heart a place (the place stays in your library).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|list|move|remove)
            "_places_favorite_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_favorite_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':place:'
        '--position[1-based position in your favorites (default\: last).]:position:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':favorite:'
        '--to[The new 1-based position.]:to:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_favorite_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':favorite:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Create an itinerary.'
            'list:List itineraries: yours and those shared with you.'
            'show:Show an itinerary: every field, places to go in order, total cost.'
            'edit:Change some fields of an itinerary.'
            'delete:Delete an itinerary.'
            'add-place:Add a place from your library to an itinerary'\''s places to go.'
            'remove-place:Remove a place to go from an itinerary.'
            'move-place:Move a place to go to another position.'
            'share:Share an itinerary with a friend by their id (owner only).'
            'members:List an itinerary'\''s members, how each joined, and its share links.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|list|show|edit|delete|add-place|remove-place|move-place|share|members)
            "_places_itinerary_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_itinerary_create() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':name:'
        '--start[First day of the trip.]:YYYY-MM-DD:'
        '--end[Last day of the trip.]:YYYY-MM-DD:'
        '--transport[How you get there, e.g. "train".]:text:'
        '--lodging-name[Where you stay.]:lodging-name:'
        '--lodging-address[The lodging'\''s address.]:lodging-address:'
        '--check-in[Lodging check-in day.]:YYYY-MM-DD:'
        '--check-out[Lodging check-out day.]:YYYY-MM-DD:'
        '--travel-price[Travel price, e.g. 120.50 (exact, in --currency).]:decimal:'
        '--lodging-price[Lodging price, e.g. 340 (exact, in --currency).]:decimal:'
        '--currency[ISO 4217 currency of --travel-price and --lodging-price.]:currency:'
        '--notes[Free-form notes.]:notes:'
        '*--place[A place id to go to (repeat, in order).]:place:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--mine[Only itineraries you own.]'
        '--shared[Only itineraries others shared with you.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_edit() {
    local -i ret=1
    local -ar ___clear=('start' 'end' 'transport' 'lodging' 'lodging-name' 'lodging-address' 'check-in' 'check-out' 'travel-price' 'lodging-price' 'notes')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--name[New name.]:name:'
        '--start[First day of the trip.]:YYYY-MM-DD:'
        '--end[Last day of the trip.]:YYYY-MM-DD:'
        '--transport[How you get there, e.g. "train".]:text:'
        '--lodging-name[Where you stay.]:lodging-name:'
        '--lodging-address[The lodging'\''s address.]:lodging-address:'
        '--check-in[Lodging check-in day.]:YYYY-MM-DD:'
        '--check-out[Lodging check-out day.]:YYYY-MM-DD:'
        '--travel-price[Travel price, e.g. 120.50 (exact, in --currency).]:decimal:'
        '--lodging-price[Lodging price, e.g. 340 (exact, in --currency).]:decimal:'
        '--currency[ISO 4217 currency of --travel-price and --lodging-price.]:currency:'
        '--notes[Free-form notes.]:notes:'
        '*--clear[Clear this field (repeatable).]:field:{__places_complete "${___clear[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_add-place() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':place:'
        '--position[1-based position among the places to go (default\: last).]:position:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_remove-place() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':stop:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_move-place() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        ':stop:'
        '--to[The new 1-based position.]:to:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_share() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--with[The friend'\''s public id.]:with:'
        '--role[editor or viewer.]:role:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_itinerary_members() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_activity() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_events() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_route() {
    local -i ret=1
    local -ar ___mode=('walking' 'cycling' 'driving')
    local -ar ___by=('duration' 'distance')
    local -ar ___format=('json' 'geojson' 'gpx' 'gmaps' 'svg')
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--mode[How you travel\: walking, cycling or driving.]:mode:{__places_complete "${___mode[@]}"}'
        '--by[What to minimise\: duration or distance.]:criterion:{__places_complete "${___by[@]}"}'
        '--round-trip[Come back to the first stop at the end.]'
        '--start[Start at this stop (stop id or place id).]:stop:'
        '--end[End at this stop (stop id or place id).]:stop:'
        '--format[json (printed as a table unless --json), geojson, gpx, gmaps or svg.]:format:{__places_complete "${___format[@]}"}'
        '--output[Write the result to this file instead of standard output.]:file:'
        '--apply[Reorder the itinerary'\''s places to go to the planned order.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_peers() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List known peers.'
            'add:Add a static peer address, for networks where discovery cannot work.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|add)
            "_places_peers_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_places_peers_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_peers_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':address:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_share() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--role[viewer or editor.]:role:'
        '--expires[When the link stops working\: 30m, 12h, 7d, 2w, a date (YYYY-MM-DD) or an RFC 3339 time.]:expires:'
        '--uses[How many people may join with it.]:uses:'
        '--for[Only this person'\''s id may join with it.]:for:'
        '--with[Add this person (their id from `places whoami`) instead of making a link.]:with:'
        '--qr[Also draw the link as a QR code in the terminal.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_join() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':link:'
        '--wait[Seconds to look for a member'\''s device (1-120).]:wait:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_members() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_unshare() {
    local -i ret=1
    local -ar arg_specs=(
        '--data-dir[The daemon'\''s data directory (default\: $PLACES_HOME, else $XDG_DATA_HOME/places, else ~/.local/share/places).]:dir:'
        '--socket[The control socket (default\: <data-dir>/placesd.sock).]:path:'
        '--json[Print the API'\''s JSON body verbatim instead of human output.]'
        ':itinerary:'
        '--member[The member'\''s id.]:member:'
        '--link[The link id (see `places members`).]:link:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_places_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _places ]]; then
    _places "${@}"
else
    compdef _places places
fi
